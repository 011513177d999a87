"""The vector store's directory deleted: on restart every vector is rebuilt from the log and
memory is untouched. The store is the real in-process Qdrant; the embedder is the small
deterministic one (tests/vectors/fake_embedder.py) behind the same Embedder port."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from query_api.retrieval.vector_plane import VectorPlane
from repocontext.app import EmbeddedApp
from streams.stores.vectors import VectorStore
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig
from tests.vectors.fake_embedder import HashEmbedder, vector

pytestmark = pytest.mark.anyio
KEYS = ["repo/repo/mem/decisions/ledger", "repo/repo/mem/notes/http"]
QUERIES = ("invoice calculator total", "post ledger entry", "http server port", "ledger")


def plane_of(app: EmbeddedApp) -> VectorPlane:
    return VectorPlane(app.settings, app.log, app.views, embedder=HashEmbedder())


def vectors_of(store: VectorStore) -> dict[str, Any]:
    """Counts per kind, and each query's scored points with their payloads (ties at equal
    score may come back in any order, so hits are compared as sorted lists)."""
    counts = {kind: store.count(repo_id="repo", kind=kind) for kind in ("file", "symbol", "memory")}
    hits = {}
    for q in QUERIES:
        found = store.search(vector(q), 50, repo_id="repo", exact=True)
        scored = sorted((m.id, round(m.score, 6)) for m in found if m.score > 0)
        hits[q] = [(pid, score, store.payloads([pid])[pid]) for pid, score in scored]
    return {"counts": counts, "points": store.state().points, "hits": hits}


async def test_deleted_vector_store_is_rebuilt_and_memory_kept(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, s):
        await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "decisions", "id": "ledger", "title": "Ledger posts",
             "body": "post_entry appends to the ledger", "tags": ["billing"]},
        )  # fmt: skip
        await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "notes", "id": "http", "body": "startHttpServer(port)"},
        )
        memory = [await call(s, "repocontext_recall", {"key": k}) for k in KEYS]
        plane = plane_of(app)
        assert plane.indexer is not None and plane.store is not None
        await plane.indexer.run_until_idle()
        before = vectors_of(plane.store)
        plane.close()
    assert before["counts"]["file"] > 0 and before["counts"]["memory"] == 2
    assert all(before["hits"].values()), "every query finds something to compare"

    vectors_dir = tmp_path / "data" / "vectors"
    assert vectors_dir.is_dir()
    shutil.rmtree(vectors_dir)

    async with memory_rig(tmp_path) as (app, s):
        plane = plane_of(app)
        assert plane.indexer is not None and plane.store is not None
        assert plane.store.state().points == 0
        await plane.indexer.run_until_idle()
        assert vectors_of(plane.store) == before
        plane.close()
        assert [await call(s, "repocontext_recall", {"key": k}) for k in KEYS] == memory

        # An intact store is not rebuilt on the next start: nothing to rewind, nothing behind.
        plane = plane_of(app)
        assert plane.indexer is not None and plane.store is not None
        assert await plane.indexer.rewind_if_store_lost() is False
        assert await plane.indexer.behind() == 0
        plane.close()
