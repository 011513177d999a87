"""repocontext_refresh(waitForVectors) waits for the topology's vector step, not only for the
views: its answer says whether the change is embedded (it said searchable while the vector
step had not embedded anything, since the embedded runtime does not run that step)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from query_api.retrieval.vector_plane import VectorPlane
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from tests.vectors.fake_embedder import HashEmbedder
from tests.vectors.test_ladder import make_repo

pytestmark = pytest.mark.anyio


async def test_refresh_waiting_for_vectors_answers_once_the_change_is_embedded(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "ws" / "repo")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    embedder = HashEmbedder()
    stop = asyncio.Event()
    async with EmbeddedApp(settings, watch=False) as app:
        plane = VectorPlane(settings, app.log, app.views, embedder=embedder)
        app.service.plane, app.service.retriever = plane, plane.retriever  # what open() wires
        await app.start(resume=False, vectors=False)
        await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="repo"))
        embedder.down = True  # nothing can be embedded until it comes back
        tasks = plane.tasks(stop, lambda: ["repo"])
        assert plane.store is not None and plane.indexer is not None
        plane.indexer.retry_seconds = 0.05
        try:
            (repo / "net" / "fresh.py").write_text("def freshly_added():\n    return 1\n")
            args = t.RefreshArgs(repoId="repo", paths=["net/fresh.py"], timeoutSeconds=60.0)
            views_only = await app.services.agent.refresh(args)
            assert views_only.searchable and not views_only.waitedForVectors
            assert app.views.get_file("repo", "net/fresh.py") is not None

            args = args.model_copy(update={"waitForVectors": True, "timeoutSeconds": 1.0})
            down = await app.services.agent.refresh(args)
            assert (down.published, down.searchable, down.waitedForVectors) == (0, False, True)

            embedder.down = False
            args = args.model_copy(update={"timeoutSeconds": 60.0})
            up = await app.services.agent.refresh(args)
            assert up.searchable and up.waitedForVectors
            assert plane.store.sources(repo_id="repo", kind="file") == 4  # fresh.py embedded too
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            plane.close()
