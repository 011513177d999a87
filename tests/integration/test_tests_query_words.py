"""A query about tests (`tests for reach`, `object tests`) names the role with `tests`: the
word is no subject to match in the code. QA on jquense/yup: `tests for reach` ranked
src/schema.ts first, for its `tests: RunTest[]` field and `Schema.tests`, above
src/util/reach.ts and every test calling reach(). The real index, the keyword ladder, the
MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/schema.ts": (
        "export type RunTest = (value: unknown) => boolean;\n\n"
        "export default class Schema {\n"
        "  tests: RunTest[] = [];\n"
        "  exclusiveTests: Record<string, boolean> = {};\n\n"
        "  test(fn: RunTest) {\n"
        "    // tests run in order; exclusive tests replace tests of their name\n"
        "    this.tests.push(fn);\n"
        "    return this;\n"
        "  }\n}\n"
    ),
    "src/util/reach.ts": (
        "import Schema from '../schema';\n\n"
        "export function reach(schema: Schema, path: string): Schema {\n"
        "  return path ? schema : schema;\n}\n"
    ),
    "test/yup.js": (
        "import { reach } from '../src/util/reach';\n\n"
        "describe('Yup', () => {\n"
        "  it('should REACH correctly', () => {\n"
        "    expect(reach(inst, '')).toBe(inst);\n"
        "  });\n});\n"
    ),
}


@pytest.mark.parametrize("query", ["tests for reach", "where are the tests for reach?"])
async def test_the_word_tests_is_not_searched_for_in_a_query_about_tests(
    tmp_path: Path, query: str
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert set(paths[:2]) == {"src/util/reach.ts", "test/yup.js"}, (paths, found["hits"])
