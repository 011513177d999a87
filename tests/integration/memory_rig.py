"""A real EmbeddedApp (SQLite log, views, runtime) driven by the real MCP client over the SDK's
in-memory transport: the same server, tools, validation and gating as stdio/HTTP, without a
subprocess per test."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.retrieval.vector_plane import VectorPlane
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas.tools import RepoIdArgs
from tests.conftest import write_sample_repo
from tests.integration.mcp_helpers import wait_for
from tests.vectors.fake_embedder import HashEmbedder


def rig_settings(tmp_path: Path, **overrides: Any) -> Settings:
    workspace = tmp_path / "ws"
    if not (workspace / "repo").exists():
        (workspace / "repo").mkdir(parents=True)
        write_sample_repo(workspace / "repo")
    base = Settings(
        data_dir=tmp_path / "data",
        workspace_root=workspace,
        embedder="none",
        processor_workers=0,
        compaction_interval_s=3600.0,
    )
    return base.model_copy(update=overrides)


@contextlib.asynccontextmanager
async def memory_rig(
    tmp_path: Path,
    *,
    index: bool = False,
    repos: tuple[str, ...] = ("repo",),
    **overrides: Any,
) -> AsyncIterator[tuple[EmbeddedApp, ClientSession]]:
    """`repos` are registered (memory belongs to registered repositories); with `index`,
    they are indexed too and "repo" (the sample) is waited for."""
    settings = rig_settings(tmp_path, **overrides)
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        root = settings.workspace_root
        assert root is not None
        for repo_id in repos:
            (root / repo_id).mkdir(exist_ok=True)
            await app.service.ensure_repo(str(root / repo_id), repo_id, launch=index)
        if index:
            deadline = time.monotonic() + 60
            while (await app.service.index_status(RepoIdArgs(repoId="repo"))).status != "Completed":
                assert time.monotonic() < deadline, "the sample repository did not finish indexing"
                await asyncio.sleep(0.02)
            assert await app.runtime.wait_idle(60)
        async with create_connected_server_and_client_session(app.mcp_server()) as session:
            yield app, session


@contextlib.asynccontextmanager
async def watched_rig(tmp_path: Path) -> AsyncIterator[tuple[EmbeddedApp, Path]]:
    """The sample repository "repo" indexed and watched (a host, unlike memory_rig), yielded
    once the watcher has synced: its job completed and no file pending."""
    settings = rig_settings(tmp_path)
    assert settings.workspace_root is not None
    repo = settings.workspace_root / "repo"
    async with EmbeddedApp(settings, watch=True) as app:
        await app.start(resume=False)
        await app.service.ensure_repo(str(repo), "repo")

        async def synced() -> bool:
            status = await app.service.index_status(RepoIdArgs(repoId="repo"))
            fresh = await app.service.freshness("repo")
            return status.status == "Completed" and fresh.pendingFiles == 0

        await wait_for(synced, 60, "the watcher to sync")
        yield app, repo


@contextlib.asynccontextmanager
async def hash_vectors(app: EmbeddedApp) -> AsyncIterator[VectorPlane]:
    """`app` with a vector plane of the hash embedder wired in as open() wires one, its
    backfill run to the end; closed on the way out."""
    plane = VectorPlane(app.settings, app.log, app.views, embedder=HashEmbedder())
    app.service.plane, app.service.retriever = plane, plane.retriever
    assert plane.indexer is not None
    try:
        await plane.indexer.run_until_idle()
        yield plane
    finally:
        plane.close()
