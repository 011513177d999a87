"""A changelog question in a repository that indexes no changelog says so
(query_api/retrieval/changelog_note.py), instead of `none of these hits declares CHANGELOG`
or no word: QA on middyjs/middy, which keeps its release notes on GitHub."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.changelog_note import NOTE
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/app.py": "class App:\n    def route(self, path):\n        raise ValueError(path)\n",
    "src/release.py": "# bump the version and write the changelog entry\nVERSION = '1.0'\n",
    "README.md": "# App\nSee the changelog on GitHub releases.\n",
}


async def _notes(tmp_path: Path, files: dict[str, str], queries: list[str]) -> list[str | None]:
    async with indexed_app(tmp_path, files) as app:
        return [
            (await app.service.search(t.SearchArgs(repoId="repo", query=query))).note
            for query in queries
        ]


async def test_a_changelog_question_where_none_is_indexed_says_so(tmp_path: Path) -> None:
    queries = ["where is the CHANGELOG", "where is the changelog", "where are the release notes"]
    for note in await _notes(tmp_path, FILES, queries):
        assert note is not None and NOTE in note, note
        assert "declares" not in note, note


async def test_a_changelog_at_any_depth_is_no_missing_one(tmp_path: Path) -> None:
    """A monorepo's package changelog is one: the question is answered, not noted."""
    for n, changelog in enumerate(("packages/core/CHANGELOG.md", "CHANGES.rst")):
        files = {**FILES, changelog: "# Changes\n\n## 1.0\n\n- First release.\n"}
        (tmp_path / str(n)).mkdir()
        for note in await _notes(tmp_path / str(n), files, ["where is the changelog"]):
            assert note is None or NOTE not in note, note
