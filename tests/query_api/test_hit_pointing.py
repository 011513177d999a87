"""A step pointing a search's hits at their lines that raises is logged, and the answer keeps
its hits and the lines the other steps gave them: an IndexError in one step (a declaration
past a file's stored text, jackson-core's `Minor Javadoc fix`) failed the whole search and
every bundle built on it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from query_api.core import hit_pointing
from query_api.retrieval.hit_details import HitLocator
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/reader.py": "# the reader\nclass Reader:\n    def read(self):\n        return 1\n",
    "src/writer.py": "from src.reader import Reader\n\ndef write():\n    return Reader().read()\n",
}


def _broken(locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]) -> None:
    raise IndexError("list index out of range")


async def test_a_step_that_raises_leaves_the_hits_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "where is Reader defined"
        before = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        monkeypatch.setattr(hit_pointing, "at_definitions", _broken)
        monkeypatch.setattr(hit_pointing, "_LATER_STEPS", (_broken,))
        with caplog.at_level(logging.ERROR, logger="query_api.core.hit_pointing"):
            after = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    assert [h.entry.path for h in after.hits] == [h.entry.path for h in before.hits]
    assert after.hits and after.hits[0].entry.path == "src/reader.py", after.hits
    failed = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert any("_broken failed" in message for message in failed), failed
