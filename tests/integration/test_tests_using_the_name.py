"""A query about the tests of one name (`tests for prefixStorage`) places the test files
using it just above the file declaring it, as it places the tests named for a file
(query_api/retrieval/tests_first.py, ladder._tests_using). QA on unjs/unstorage: `tests for
prefixStorage` ranked src/utils.ts, which declares it, first and test/storage.test.ts, which
calls it but is named for src/storage.ts, below it. The real index, the keyword ladder, the
MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/utils.ts": (
        "export function prefixStorage(storage: object, base: string): object {\n"
        "  return { storage, base };\n"
        "}\n\n"
        "export function normalizeKey(key: string): string {\n"
        '  return key.replace(/[:/]/g, ":");\n'
        "}\n"
    ),
    "src/storage.ts": (
        'import { normalizeKey } from "./utils";\n\n'
        "export function createStorage(base: string): object {\n"
        "  return { base: normalizeKey(base) };\n"
        "}\n"
    ),
    "test/storage.test.ts": (
        'import { createStorage } from "../src/storage";\n'
        'import { prefixStorage } from "../src/utils";\n\n'
        'describe("storage", () => {\n'
        '  it("mounts a prefixed storage", () => {\n'
        '    const pStorage = prefixStorage(createStorage("a"), "foo");\n'
        "    expect(pStorage).toBeTruthy();\n"
        "  });\n"
        "});\n"
    ),
}


async def test_the_tests_calling_the_name_come_just_above_its_file(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "tests for prefixStorage"}
        )
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[:2] == ["test/storage.test.ts", "src/utils.ts"], (paths, found["hits"])
        assert "tests:src/utils.ts" in found["hits"][0]["reasons"]
