"""repocontext itself as a benchmark system: index a checkout in process, then ask the same
service methods the MCP tools call (`repocontext_search`, `repocontext_context`).

Each system owns a data directory; reopening one whose views already hold the checkout skips
the walk's work (the stat fast path), so a tuning loop over query-side changes re-indexes
nothing. With the local embedder the vectors are backfilled to full coverage before the first
query, so the figures measure the ranking, not the backfill's progress.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from repocontext.data_dir import PRIVATE_UMASK
from schemas import tools as t
from schemas.bundle import ContextArgs

log = logging.getLogger(__name__)

BACKFILL_POLL_S = 1.0


GRAPH_WAIT_S = 600.0


class RepocontextSystem:
    """One indexed checkout behind the service layer the MCP tools use."""

    def __init__(self, app: EmbeddedApp, repo_id: str) -> None:
        self.app = app
        self.repo_id = repo_id

    @classmethod
    async def open(
        cls, checkout: Path, data_dir: Path, *, embedder: str = "none", hybrid: bool = True
    ) -> RepocontextSystem:
        # as `repocontext serve` does: files the service makes are its user's alone, so the
        # data directory's check has nothing to repair (and to print) at every open
        os.umask(PRIVATE_UMASK)
        settings = Settings(
            data_dir=data_dir,
            embedder=embedder,
            hybrid=hybrid,
            workspace_root=checkout,
            compaction_interval_s=3600.0,
        )
        app = EmbeddedApp(settings, watch=False)
        await app.open()
        try:
            await app.start(resume=False, vectors=embedder != "none")
            registration = await app.service.ensure_repo(str(checkout), checkout.name, launch=False)
            await app.ingest.reconcile(registration, force_full=False)
            system = cls(app, registration.repo_id)
            await system.wait_for_views()
            if embedder != "none":
                await system.wait_for_vectors()
            await system.wait_for_file_graph()
        except BaseException:
            await app.close()
            raise
        return system

    async def wait_for_views(self) -> None:
        """Until every step has processed what the log holds: a cached index made by an older
        symbols processor is re-derived at start while the views keep answering, and a case
        asked meanwhile would see some files' old records and others' new ones."""
        started = time.monotonic()
        while not await self.app.runtime.wait_idle(30.0):
            log.info("views: still deriving after %.0f s", time.monotonic() - started)

    async def wait_for_vectors(self) -> None:
        """Until the vector step has embedded everything the log holds."""
        indexer = self.app.plane.indexer
        if indexer is None:
            return
        started = time.monotonic()
        last_report = 0.0
        while (behind := await indexer.behind()) > 0:
            now = time.monotonic()
            if now - last_report > 30:
                log.info("vectors: %d events behind after %.0f s", behind, now - started)
                last_report = now
            await asyncio.sleep(BACKFILL_POLL_S)

    async def wait_for_file_graph(self) -> None:
        """Until search's file graph of the repository is built, so every case sees it."""
        await self.app.service.search(t.SearchArgs(repoId=self.repo_id, query="main", k=1))
        retriever = self.app.service.retriever
        if retriever is not None:
            started = time.monotonic()
            built = await asyncio.to_thread(retriever.graphs.wait, self.repo_id, GRAPH_WAIT_S)
            log.info(
                "file graph %s in %.1f s",
                "built" if built else "not built",
                time.monotonic() - started,
            )

    async def search(self, query: str, k: int = 50) -> list[str]:
        """Ranked repo-relative file paths, each once (a symbol hit counts for its file)."""
        args = t.SearchArgs(repoId=self.repo_id, query=query[:4096], k=k)
        result = await self.app.service.search(args)
        paths: list[str] = []
        for hit in result.hits:
            path = hit.entry.path
            if hit.entry.kind in ("File", "Symbol") and path and path not in paths:
                paths.append(path)
        return paths

    async def context_paths(self, query: str, budget: int = 8192) -> list[str]:
        """The files the context bundle packed, in its order."""
        args = ContextArgs(repoId=self.repo_id, task=query[:16_384], responseBudgetTokens=budget)
        result = await self.app.services.bundle.context(args)
        paths: list[str] = []
        for entry in result.entries:
            if entry.path not in paths:
                paths.append(entry.path)
        return paths

    async def close(self) -> None:
        await self.app.close()
