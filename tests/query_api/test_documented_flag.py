"""`where is --git-repos documented`: the docs writing the flag whole come first, not those
holding one of its words (query_api/retrieval/docs_first.py). QA on eza-community/eza ranked
INSTALL.md and CONTRIBUTING.md, writing `git` and `repos` apart, above man/eza.1.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "INSTALL.md": "".join(
        f"Clone the git repos of lister, step {i}: git clone the repos, then build.\n"
        for i in range(8)
    ),
    "man/lister.1.md": (
        "# lister(1)\n\n## OPTIONS\n\n`--long`\n: one file per line, with details\n\n"
        "`--git-repos`\n: list each directory's Git status, if tracked\n"
    ),
    "src/main.rs": 'fn main() { let flag = "--git-repos"; }\n',
}


async def test_the_docs_writing_the_flag_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "where is --git-repos documented"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    assert [hit.entry.path for hit in answer.hits][:1] == ["man/lister.1.md"]
