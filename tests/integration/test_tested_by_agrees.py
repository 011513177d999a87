"""Search's `tested-by:<test>` reason and related's `tests` read one rule
(query_api/symbols/tested_by.py): the file search places a test under is the file related
lists the test for, an index file named by its folder included. QA pass on elysia: search
put src/index.ts above test/adapter/bun/index.test.ts (`tested-by:`) while related listed
that test for src/adapter/bun/index.ts only, and related(src/adapter/index.ts) listed no
test named for it. The real index, the keyword ladder, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/index.ts": "export const version = 1\n",
    "src/adapter/index.ts": "export function adapt(): number { return 1 }\n",
    "src/adapter/bun/index.ts": "export function serve(): number { return 2 }\n",
    "src/ws/index.ts": "export function socket(): number { return 3 }\n",
    # no test imports its subject: only the naming convention ties them
    "test/adapter.test.ts": "describe('quokka', () => { it('quokka quokka', () => {}) })\n",
    "test/adapter/bun/index.test.ts": "describe('wombat', () => { it('wombat', () => {}) })\n",
    "src/ws/index.test.ts": "describe('platypus', () => { it('platypus', () => {}) })\n",
}

# the word only the test holds -> (the test, the file it tests)
CASES = {
    "quokka": ("test/adapter.test.ts", "src/adapter/index.ts"),
    "wombat": ("test/adapter/bun/index.test.ts", "src/adapter/bun/index.ts"),
    "platypus": ("src/ws/index.test.ts", "src/ws/index.ts"),
}


async def test_search_s_tested_by_is_the_file_related_lists_the_test_for(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for word, (test, subject) in CASES.items():
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": word})
            placed = [
                h["entry"]["path"]
                for h in found["hits"]
                if f"tested-by:{test}" in h.get("reasons", [])
            ]
            assert placed == [subject], (word, found["hits"])
            related = await call(s, "repocontext_related", {"repoId": "repo", "path": subject})
            assert test in {t["path"] for t in related.get("tests", [])}, (subject, related)
        # src/index.ts is named by no test: neither answer ties one to it
        root = await call(s, "repocontext_related", {"repoId": "repo", "path": "src/index.ts"})
        assert root.get("tests", []) == [], root
