"""A cached vector coverage never claims a file the views hold and the vector plane has not
embedded: a complete coverage is served from the cache only while the views have applied no
content since it was measured. Real pipeline, views, in-process Qdrant.

Found by a QA pass over MCP: for about 2 s (COVERAGE_TTL_S) after a file was added, every
answer's `freshness.vectors` said `complete: true` with the old file count.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.vectors.test_ladder import Rig, open_rig

pytestmark = pytest.mark.anyio
QUERY = "retry backoff sleep delay"


async def answer_vectors(rig: Rig) -> t.VectorCoverage:
    answer = await rig.app.service.search(t.SearchArgs(repoId="repo", query=QUERY, k=10))
    assert answer.freshness is not None
    found = answer.freshness.vectors
    assert isinstance(found, t.VectorCoverage), found
    return found


async def test_a_file_added_after_complete_coverage_is_not_claimed(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        reader = rig.plane.coverage
        assert reader is not None
        reader.ttl_s = 3600.0  # the cache would serve for the whole test: only a change ends it
        await rig.indexer.run_until_idle()
        done = await answer_vectors(rig)
        assert (done.filesTotal, done.filesCovered) == (4, 4) and done.complete
        cached = reader._cached["repo"]
        assert await answer_vectors(rig) == done
        assert reader._cached["repo"] is cached  # nothing changed: served from the cache

        # A new source file reaches the views; the vector step has not run.
        repo = tmp_path / "ws" / "repo"
        (repo / "net").mkdir(exist_ok=True)
        (repo / "net" / "jitter.py").write_text("def jitter_backoff(delay):\n    return delay\n")
        await rig.app.ingest.refresh("repo", ["net/jitter.py"])
        await rig.app.runtime.run_until_idle()
        assert rig.app.views.content_count("repo") == 5
        after = await answer_vectors(rig)
        assert (after.filesTotal, after.filesCovered) == (5, 4), after
        assert not after.complete and after.passagesPending >= 1


async def test_a_partial_coverage_is_still_served_from_the_cache(tmp_path: Path) -> None:
    """While a first index runs the views apply content all the time: a partial coverage
    stays cached for its TTL (it already says it is partial), not measured on every answer."""
    async for rig in open_rig(tmp_path):
        reader = rig.plane.coverage
        assert reader is not None
        reader.ttl_s = 3600.0
        partial = await answer_vectors(rig)
        assert (partial.filesTotal, partial.filesCovered) == (4, 0) and not partial.complete
        cached = reader._cached["repo"]
        (tmp_path / "ws" / "repo" / "more.py").write_text("def more():\n    return 1\n")
        await rig.app.ingest.refresh("repo", ["more.py"])
        await rig.app.runtime.run_until_idle()
        assert await answer_vectors(rig) == partial
        assert reader._cached["repo"] is cached
        reader.ttl_s = 0.0
        assert (await answer_vectors(rig)).filesTotal == 5
