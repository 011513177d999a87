"""A query that is only a place written in words (`object.ts line 300`, `lines 3-9 of
object.ts`) names its file as `object.ts:300` does, though a test file shares its name: a
bare file name in a sentence names a file only when one file is called so, and jquense/yup
has src/object.ts and test/object.ts. QA on jquense/yup: `object.ts line 300` ranked
src/string.ts first and src/object.ts second, where `src/object.ts:300` ranked it first. The
real index, the keyword ladder, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/object.ts": "".join(f"export const field{n} = {n};\n" for n in range(1, 320)),
    "test/object.ts": "it('object', () => {\n  expect(1).toBe(1);\n});\n",
    # the query's other words, many times
    "src/lines.ts": "".join(f"// line {n}: a line of lines, line 300\n" for n in range(1, 40)),
}


@pytest.mark.parametrize(
    "query", ["object.ts line 300", "lines 298-302 of object.ts", "object.ts:300"]
)
async def test_a_place_in_words_ranks_its_file_first(tmp_path: Path, query: str) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hits = found["hits"]
        assert hits[0]["entry"]["path"] == "src/object.ts", [h["entry"]["path"] for h in hits]
        assert hits[0]["startLine"] <= 300 <= hits[0]["endLine"], hits[0]
