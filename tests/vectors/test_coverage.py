"""Vector coverage, said plainly (issue 21 item 3): list_repos, health, /health/ready's vector
component and every search answer say how much of the repository has vectors, and a semantic
answer over partial coverage marks its hits. Real pipeline, views, in-process Qdrant."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.vector_coverage import PARTIAL_REASON
from schemas import bundle as b
from schemas import tools as t
from schemas.retrieval import SearchMode
from tests.vectors.test_ladder import Rig, open_rig

pytestmark = pytest.mark.anyio


async def coverage(rig: Rig) -> t.VectorCoverage:
    listed = await rig.app.service.list_repos(t.NoArgs())
    found = listed.repositories[0].vectorCoverage
    assert found is not None
    return found


async def search(rig: Rig, query: str) -> t.SearchResult:
    return await rig.app.service.search(t.SearchArgs(repoId="repo", query=query, k=10))


async def bundle_vectors(rig: Rig) -> t.VectorCoverage | t.VectorsComplete | None:
    args = b.ContextArgs(repoId="repo", task="retry backoff sleep delay")
    answer = await rig.app.services.bundle.context(args)
    assert answer.entries and answer.freshness is not None
    return answer.freshness.vectors


async def test_coverage_from_nothing_to_partial_to_complete(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        assert rig.plane.coverage is not None
        rig.plane.coverage.ttl_s = 0.0  # every read measures (the cache serves bursts)

        # Nothing embedded yet: 4 text files, none covered; health says so.
        before = await coverage(rig)
        assert (before.filesTotal, before.filesCovered, before.passagesEmbedded) == (4, 0, 0)
        assert not before.complete and before.passagesPending == 3  # empty.py: a marker
        health = await rig.app.service.health(t.NoArgs())
        assert "vectors cover 0 of 4 files" in health.status

        # Complete: every file embedded or marked; nothing pending; a rate was measured.
        await rig.indexer.run_until_idle()
        done = await coverage(rig)
        assert (done.filesTotal, done.filesCovered, done.filesEmbedded) == (4, 4, 3)
        assert done.complete and done.passagesPending == 0 and done.etaSeconds == 0.0
        assert done.passagesEmbedded == 3 and done.passagesPerSecond
        answer = await search(rig, "retry backoff sleep delay")
        assert answer.mode == SearchMode.SEMANTIC and answer.freshness is not None
        assert answer.freshness.vectors == done
        assert not [h for h in answer.hits if PARTIAL_REASON in h.reasons]
        # a context bundle, every token of it budgeted, says only that coverage is complete
        assert await bundle_vectors(rig) == t.VectorsComplete()
        assert "vectors cover" not in (await rig.app.service.health(t.NoArgs())).status

        # Partial: two new source files reach the views but not the vector step yet.
        repo = tmp_path / "ws" / "repo"
        for name in ("net/jitter.py", "net/deadline.py"):
            (repo / name).write_text(f"def {name[4:-3]}_backoff(delay):\n    return delay\n")
        await rig.app.ingest.refresh("repo", ["net/jitter.py", "net/deadline.py"])
        await rig.app.runtime.run_until_idle()
        partial = await coverage(rig)
        assert (partial.filesTotal, partial.filesCovered) == (6, 4) and not partial.complete
        assert partial.passagesPending >= 1 and partial.etaSeconds and partial.etaSeconds > 0
        answer = await search(rig, "retry backoff sleep delay")
        assert answer.mode == SearchMode.SEMANTIC
        assert answer.hits and all(PARTIAL_REASON in h.reasons for h in answer.hits)
        assert answer.freshness is not None and answer.freshness.vectors == partial
        assert await bundle_vectors(rig) == partial  # partial coverage: the counts matter
        assert "vectors cover 4 of 6 files" in (await rig.app.service.health(t.NoArgs())).status
        component = await rig.plane.component()
        assert component["coverage"] == {"repo": partial.model_dump(exclude_none=True)}


async def test_pending_passages_are_estimated_before_the_first_batch_lands(
    tmp_path: Path,
) -> None:
    """Contentless markers are stored before the first embedding batch; they cover a file but
    hold no passage, and the estimate used to divide by them: 0 pending, so `index --vectors`
    showed 0/0 until the first batch landed (issue 24)."""
    from streams.vectors_step import EmbedFailed

    async for rig in open_rig(tmp_path):
        assert rig.plane.coverage is not None
        rig.plane.coverage.ttl_s = 0.0
        rig.embedder.down = True  # the first batch never lands; the marker is stored first
        with pytest.raises(EmbedFailed):
            await rig.indexer.run_once()
        partial = await coverage(rig)
        assert (partial.filesTotal, partial.filesCovered, partial.filesEmbedded) == (4, 1, 0)
        assert partial.passagesPending >= 3 and not partial.complete


def test_text_files_without_content_rows_yet_are_not_complete(tmp_path: Path) -> None:
    """The files view fills before the content view: in that window the coverage said 0 of 0
    files, complete (seen over MCP on koa at start: `complete: true`, `filesTotal: 0`)."""
    from query_api.retrieval.vector_coverage import CoverageReader
    from streams.embedders.base import EmbeddingSpace
    from streams.stores.vectors import EdgeVectorStore
    from streams.stores.views.handlers import default_registry
    from streams.stores.views.store import ViewStore
    from tests.streams.test_views import STRUCTURE, file, reg

    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        records = [r for r in file("r", "a.py", "def a():\n    return 1\n") if r[0] == STRUCTURE]
        views.apply([reg("r"), *records], {})
        assert views.file_count("r") == 1 and views.content_count("r") == 0
        store = EdgeVectorStore(tmp_path / "vectors", EmbeddingSpace("test/space", 8))
        try:
            found = CoverageReader(views, store, None).of("r")
        finally:
            store.close()
    assert (found.filesTotal, found.filesCovered) == (1, 0) and not found.complete


async def test_an_empty_coverage_is_not_cached(tmp_path: Path) -> None:
    """Before the first files reach the views the coverage is 0 of 0; cached for the burst
    TTL, it kept saying so (complete) for 2 s after files had arrived."""
    async for rig in open_rig(tmp_path):
        reader = rig.plane.coverage
        assert reader is not None and reader.ttl_s > 0
        assert reader.of("not-yet").filesTotal == 0
        assert "not-yet" not in reader._cached
        assert reader.of("repo").filesTotal == 4 and "repo" in reader._cached


async def test_files_replaced_while_the_vector_step_lags_are_not_complete(
    tmp_path: Path,
) -> None:
    """A branch switch deletes files and adds others: until the vector step consumes the
    change, the store still holds the deleted files' vectors and none of the new files'. The
    coverage counted the deleted files' vectors as covering the new ones and said complete,
    0 pending (QA on requests: 8 s of `complete: true` after `git checkout` while semantic
    hits still came from the old files' vectors)."""
    async for rig in open_rig(tmp_path):
        assert rig.plane.coverage is not None
        rig.plane.coverage.ttl_s = 0.0
        await rig.indexer.run_until_idle()
        assert (await coverage(rig)).complete

        repo = tmp_path / "ws" / "repo"
        (repo / "net/retry.py").rename(repo / "net/retrying.py")
        await rig.app.ingest.refresh("repo", ["net/retry.py", "net/retrying.py"])
        await rig.app.runtime.run_until_idle()  # the views have it; the vector step not yet
        lagging = await coverage(rig)
        assert not lagging.complete and lagging.passagesPending >= 1
        answer = await search(rig, "retry backoff sleep delay")
        assert answer.hits and all(PARTIAL_REASON in h.reasons for h in answer.hits)

        await rig.indexer.run_until_idle()
        assert (await coverage(rig)).complete
