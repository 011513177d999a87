"""`what imports src/drivers/utils/index.ts` (a file's path) and `who imports tracing` (a
TypeScript module's bare name) answer the files importing that file first, each with a
`uses:` reason, as `who imports nativetypes` does for a Python module. QA on unjs/unstorage:
neither placed an importer; the file itself led, then files sharing the path's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import imported_file
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/drivers/utils/index.ts": (
        "export function normalizeKey(key: string): string {\n"
        '  return key.replace(/[:/]/g, ":");\n'
        "}\n"
    ),
    "src/drivers/redis.ts": (
        'import { normalizeKey } from "./utils/index.ts";\n\n'
        "export function redisKey(key: string): string {\n"
        "  return normalizeKey(key);\n"
        "}\n"
    ),
    "src/tracing.ts": (
        "export function withTracing(storage: object): object {\n  return storage;\n}\n"
    ),
    "src/index.ts": 'export { withTracing } from "./tracing.ts";\n',
    # the words, no import
    "src/notes.ts": (
        "// which drivers import the utils index, and who imports tracing? see the docs\n"
        "export const notes = 1;\n"
    ),
}


def test_what_a_query_for_a_files_importers_is() -> None:
    assert imported_file("what imports src/drivers/utils/index.ts") == "src/drivers/utils/index.ts"
    assert imported_file("who uses `utils/index.ts`?") == "utils/index.ts"
    assert imported_file("importers of tracing.ts") == "tracing.ts"
    assert imported_file("what imports jinja2.sandbox") is None  # a module's dotted name
    assert imported_file("who imports tracing") is None


@pytest.mark.parametrize(
    ("query", "importer", "reason"),
    [
        ("what imports src/drivers/utils/index.ts", "src/drivers/redis.ts", "uses:index.ts"),
        ("who imports tracing", "src/index.ts", "uses:tracing"),
    ],
)
async def test_the_files_importing_it_come_first(
    tmp_path: Path, query: str, importer: str, reason: str
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        first = found["hits"][0]
        assert first["entry"]["path"] == importer, found["hits"]
        assert first["reasons"][0] == reason, first
