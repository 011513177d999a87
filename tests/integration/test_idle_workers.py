"""Idle memory (issue 21 item 4): once the keyword index is complete the processor pool's
workers stop before the vector plane loads its model, so the two never hold memory at once
for the backfill's whole length. Real app, pipeline and spawned workers."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from streams.runtime.pool import IdlePool

pytestmark = pytest.mark.anyio


async def test_processor_workers_stop_when_the_vector_plane_starts(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    (repo / "pkg").mkdir(parents=True)
    for i in range(5):
        (repo / "pkg" / f"mod{i}.py").write_text(f"def handler_{i}(request):\n    return {i}\n")
    settings = Settings(
        data_dir=tmp_path / "data",
        workspace_root=tmp_path / "ws",
        embedder="none",
        processor_workers=1,
    )
    async with EmbeddedApp(settings, watch=False) as app:
        pool = app.executor
        assert isinstance(pool, IdlePool)
        pool.idle_stop_s = 3600.0  # only the vector plane's start may stop it here
        await app.start(resume=False, vectors=False)
        await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="repo"))
        # the ingest job publishes in the background: idle before it has is no index at all
        # (a loaded machine once saw the pool never started, as nothing had been logged yet)
        deadline = time.monotonic() + 60
        while (await app.service.index_status(t.RepoIdArgs(repoId="repo"))).status != "Completed":
            assert time.monotonic() < deadline, "the repository did not finish indexing"
            await asyncio.sleep(0.02)
        assert await app.runtime.wait_idle(60)
        assert pool.alive and pool.starts == 1  # the indexing ran on the worker
        app.start_vectors()
        deadline = time.monotonic() + 60
        while pool.alive and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert not pool.alive, "the idle processor workers outlived the keyword index"
