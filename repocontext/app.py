"""The embedded deployable, composed: log, views, manifest, runtime, ingest, service.

`EmbeddedApp` owns every resource and the background tasks (runtime loop, ingest); the CLI
builds one from the Settings and runs MCP (stdio or HTTP) on top of its service.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from mcp.server.lowlevel import Server

from query_api.access.auth import LOCAL_USER, Principal
from query_api.access.guard import WorkspaceGuard
from query_api.context.bundle import BundleService
from query_api.core.agent_tools import AgentTools, retrieval_rungs
from query_api.core.onboarding import Onboarding
from query_api.core.service import RepoContextService
from query_api.errors import ServiceUnavailable
from query_api.memory.claims import ClaimService
from query_api.memory.service import MemoryService
from query_api.metrics import Metrics
from query_api.retrieval.file_graph import follow_index_settled
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_plane import VectorPlane
from query_api.server.call_guard import CallGuard
from query_api.server.mcp_server import build_server
from query_api.server.tool_catalog import ToolServices, ToolSpec, visible_tools
from query_api.settings import Settings
from query_api.symbols.service import SymbolService
from repocontext.backfill_log import BACKFILL_LOG_S, log_backfill
from repocontext.data_dir import secure_data_dir
from schemas.topics import CATALOGUE
from streams.errors import StorageFull, StoreError, storage_exhausted
from streams.eventlog.base import EventLog
from streams.eventlog.factory import open_event_log
from streams.ingest import IngestCoordinator
from streams.pacer import ForegroundPacer
from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.pool import processor_pool
from streams.runtime.shards import ShardAssignment
from streams.sources.manifest import Manifest
from streams.sources.reconcile import ProgressCallback
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.topology import embedded_topology, replica_topology

log = logging.getLogger(__name__)

KEYWORD_SETTLE_POLL_S = 0.2  # how often the vector plane's start checks the keyword index
WHOLE = ShardAssignment(0, 1)  # every repository: the embedded app, an unsharded replica
EMBEDDED_POLL_S = 0.5  # an idle step's poll; in-process appends wake the steps sooner
RUNTIME_STOP_GRACE_S = 2.0  # close() lets the runtime finish its loops before cancelling it


class DataDirBusy(ServiceUnavailable):
    """The data directory's lock is held by another live process (`holder`: its pid)."""

    def __init__(self, message: str, holder: int | None) -> None:
        super().__init__(message)
        self.holder = holder


class DataDirLock:
    """One indexing process per data directory (two watchers would double-publish); later
    agents attach to the holder instead (repocontext/agent_socket.py)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "lock"
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        handle = open(self.path, "a+")  # noqa: SIM115 - held for the process lifetime
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            raise DataDirBusy(
                f"another repocontext process (pid {holder or '?'}) is using "
                f"{self.path.parent}; stop it or pass a different --data-dir",
                int(holder) if holder.isdigit() else None,
            ) from exc
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def heavy_reads(settings: Settings) -> int:
    """Heavy calls of one repository at once: with search readers, one more than them, so
    a reader has the next search waiting while this process renders the last one."""
    readers = settings.search_readers
    return max(settings.heavy_reads_per_repo, readers + 1 if readers else 0)


def open_views(path: Path) -> ViewStore:
    """Open the views; a corrupt or foreign-version file is moved aside and rebuilt.

    The views are a projection: their offsets live inside them, so a fresh file is simply
    re-consumed from the start of the log. Nothing is lost, only time."""
    try:
        views = ViewStore(path, default_registry())
        views.integrity_check()
        return views
    except (StoreError, sqlite3.DatabaseError) as exc:
        if storage_exhausted(exc):  # out of room is not corruption: keep the file
            raise StorageFull.at(path, exc) from exc
        aside = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
        log.warning("views at %s unusable (%s); moved to %s and rebuilding from the log",
                    path, exc, aside)  # fmt: skip
        for suffix in ("", "-wal", "-shm"):
            source = Path(str(path) + suffix)
            if source.exists():
                source.replace(Path(str(aside) + suffix))
        return ViewStore(path, default_registry())


@dataclass(frozen=True)
class ReplicaOptions:
    """What makes the app a distributed query replica (`repocontext query`): only the view
    sink runs here (workers run the processors), under the replica's own consumer group,
    polling the broker since no in-process append wakes it, and ready only within a lag
    bound. Built by repocontext/distributed.replica_options."""

    sink_group: str
    poll_seconds: float
    max_ready_lag: int | None
    shard: ShardAssignment = WHOLE  # the repositories its view sink keeps


class EmbeddedApp:
    def __init__(
        self,
        settings: Settings,
        *,
        watch: bool = True,
        on_progress: ProgressCallback | None = None,
        vector_writer: bool = True,
        replica: ReplicaOptions | None = None,
        backfill_log_s: float = BACKFILL_LOG_S,
    ) -> None:
        self.settings = settings
        self.backfill_log_s = backfill_log_s  # a backfill progress line this often (serving)
        self.watch = watch
        self.vector_writer = vector_writer  # False: `repocontext worker` writes the vectors
        self.replica = replica
        self.on_progress = on_progress
        self._stop = asyncio.Event()
        self._runtime_task: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = DataDirLock(settings.data_dir)
        self.log: EventLog
        self.views: ViewStore
        self.manifest: Manifest
        self.runtime: EmbeddedRuntime
        self.ingest: IngestCoordinator
        self.service: RepoContextService
        self.metrics = Metrics()

    async def open(self) -> EmbeddedApp:
        secure_data_dir(self.settings.data_dir)  # 0700: log.db holds all code and memory
        self._lock.acquire()
        self.log = open_event_log(
            self.settings.resolved_log_url(),
            tombstone_retention_ms=int(self.settings.compaction_tombstone_retention_s * 1000),
            **self.settings.event_log_options(),
        )
        await self.log.create_topics(CATALOGUE)
        self.views = open_views(self.settings.views_path)
        self.manifest = Manifest(self.settings.manifest_path)
        secure_data_dir(self.settings.data_dir, quiet=True)  # the databases just created: 0600
        self.executor = processor_pool(self.settings.processor_workers)
        replica = self.replica
        self.runtime = EmbeddedRuntime(
            self.log,
            self.views,
            replica_topology() if replica is not None else embedded_topology(),
            batch_size=self.settings.batch_size,
            poll_seconds=replica.poll_seconds if replica is not None else EMBEDDED_POLL_S,
            executor=self.executor,
            fault_after_failures=self.settings.fault_after_failures,
            sink_group=replica.sink_group if replica is not None else None,
            shard=replica.shard if replica is not None else None,
        )
        self.ingest = IngestCoordinator(
            self.log,
            self.manifest,
            data_dir=self.settings.data_dir,
            notify=self.runtime.notify,
            wait_idle=self.runtime.wait_idle,
            watch=self.watch,
            debounce_ms=self.settings.debounce_ms,
            batch_size=self.settings.batch_size,
            on_progress=self.on_progress,
        )
        self.guard = WorkspaceGuard(self.settings.workspace_root)
        self.pacer = ForegroundPacer()  # tool calls hold it; embedding batches yield to them
        self.plane = VectorPlane(
            self.settings,
            self.log,
            self.views,
            pacer=self.pacer,
            writer=self.vector_writer,
            open_later=self.watch,  # a host's store opens with the plane (start_vectors)
            indexing=self.keyword_indexing,
        )
        self.readiness: Readiness = self.plane.readiness
        self.service = RepoContextService(
            self.views,
            self.runtime,
            self.ingest,
            self.guard,
            self.readiness,
            plane=self.plane,
            metrics=self.metrics,
            max_ready_lag=replica.max_ready_lag if replica is not None else None,
        )
        encoding = self.settings.token_encoding
        memory = MemoryService(self.log, self.views, self.runtime, self.settings, self.service)
        bundle = BundleService(
            self.service, self.views, encoding, self.settings.data_dir / "sessions.db"
        )
        memory.on_remove.append(bundle.sessions.delete_repo)  # sessions go with the repository
        self.service.on_reset.append(lambda repo: {"sessions": bundle.sessions.delete_repo(repo)})
        # The tools' owners (ToolSpec.handler picks the coroutine from these).
        self.services = ToolServices(
            core=self.service,
            agent=AgentTools(
                self.service, self.settings.data_dir, retrieval_rungs(self.plane), self.pacer
            ),
            symbols=SymbolService(
                self.views,
                self.ingest,
                self.guard,
                self.service.freshness,
                encoding,
                self.settings.data_dir / "git-staging",
            ),
            memory=memory,
            claims=ClaimService(memory),
            onboarding=Onboarding(self.service),
            bundle=bundle,
        )
        return self

    def mcp_server(
        self, *, profile: str | None = None, writes: bool = True, caller: Principal = LOCAL_USER
    ) -> Server[Any, Any]:
        """The MCP server over this app's services, with the configured tools and profile
        (an attached agent's own `profile`; its `writes=False` withholds the write tools,
        and it never gets write tools this process withholds). `caller` is who calls when
        no HTTP request says so: the local user, or an attached `serve`'s principal."""
        profile = profile or self.settings.tool_profile
        return build_server(
            self.services,
            self.tools(profile=profile, writes=writes),
            self.metrics,
            self.settings.tool_timeout_s,
            compact=profile == "compact",
            pacer=self.pacer,
            guard=CallGuard(
                self.settings.tool_timeout_s,
                heavy_reads(self.settings),
                write_block=self.runtime.health.write_block,
            ),
            caller=caller,
        )

    def tools(self, *, profile: str | None = None, writes: bool = True) -> list[ToolSpec]:
        return visible_tools(
            writes=self.settings.enable_writes and writes,
            has_root=self.guard.enforcing,
            workspace_mode=self.settings.workspace_mode,
            profile=profile or self.settings.tool_profile,
            sources_here=self.replica is None,  # a replica's repositories are git sources'
        )

    async def start(self, *, resume: bool = True, vectors: bool | None = None) -> None:
        """Run the pipeline in the background and resume every registered repository.
        `vectors` (default: what `watch` says) runs the vector backfill too."""
        await self.runtime.check_log()  # a lost or corrupt log: not ready, writes refused
        if self.watch and self.replica is None and self.executor is not None:
            self.executor.warm()  # a host indexes next: the worker imports meanwhile
        self._runtime_task = asyncio.create_task(self.runtime.run_forever(self._stop))
        self._tasks.append(self._runtime_task)
        self._tasks.append(asyncio.create_task(self._compact_periodically()))
        if self.watch:  # a graph built over a half-applied index is replaced once it completes
            graphs = self.plane.retriever.graphs
            follow = follow_index_settled(self.keyword_index_settled, graphs, self._stop)
            self._tasks.append(asyncio.create_task(follow))
            if self.views.built_from_empty:
                self._tasks.append(asyncio.create_task(self._compact_views_once_settled()))
        try:
            if resume:
                await self.ingest.start_all()
            else:
                await self.ingest.load()
        except Exception:
            if self.runtime.health.reason() is None:
                raise
            # a faulted log: keep serving reads from the views and say why in /health/ready
            log.exception("the registered repositories could not be read from the log")
        # Vectors backfill in the background of long-running hosts (serve, mcp: watch=True);
        # keyword search answers meanwhile. One-shot commands (index, search) never embed.
        if self.watch if vectors is None else vectors:
            self.start_vectors()

    def start_vectors(self) -> None:
        """Start the vector plane (opening the vector store, model load, warm-up, backfill)
        once the keyword index is complete. Opening the store, loading the model and
        embedding compete for the same few cores as the indexer, so on a fresh start they
        would delay the first keyword answers (searches meanwhile answer from the keyword
        rung and say why); a host that registers its repository after
        `start(vectors=False)` calls this afterwards."""
        self._tasks.append(asyncio.create_task(self._vectors_after_keyword()))

    async def _compact_views_once_settled(self) -> None:
        """Views built from empty here are compacted once, when the keyword index first
        settles after an index completed (ViewStore.compact_first_build): a host starts with
        no repository, which is settled too. A one-shot `index` compacts as it ends."""
        while not self._stop.is_set() and not (
            self._an_index_completed() and await self.keyword_index_settled()
        ):
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), KEYWORD_SETTLE_POLL_S)
        if not self._stop.is_set():
            await asyncio.to_thread(self.views.compact_first_build)

    def _an_index_completed(self) -> bool:
        jobs = (self.ingest.job(repo_id) or {} for repo_id in self.ingest.registered_ids())
        return any(job.get("status") == "Completed" for job in jobs)

    async def _vectors_after_keyword(self) -> None:
        while not self._stop.is_set() and not await self.keyword_index_settled():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), KEYWORD_SETTLE_POLL_S)
        if not self._stop.is_set():
            if self.executor is not None:  # its workers' memory goes before the model loads
                await asyncio.to_thread(self.executor.stop_if_idle)
            self._tasks.extend(self.plane.tasks(self._stop, self.ingest.registered_ids))
            if self.plane.indexer is not None:  # this process embeds: say how far it got
                self._tasks.append(
                    asyncio.create_task(
                        log_backfill(
                            self.plane.coverage_of,
                            self.ingest.registered_ids,
                            self._stop,
                            self.backfill_log_s,
                        )
                    )
                )

    def keyword_indexing(self, repo_id: str) -> bool:
        """Whether this process is still building the repository's keyword index."""
        return (self.ingest.job(repo_id) or {}).get("status") == "Running"

    async def keyword_index_settled(self) -> bool:
        """No ingest job running and the views caught up with the log."""
        for repo_id in self.ingest.registered_ids():
            if (self.ingest.job(repo_id) or {}).get("status") == "Running":
                return False
        try:
            return (await self.runtime.lag()).behind == 0
        except Exception:  # a faulted log: the views will not catch up; do not hold vectors
            return True

    async def _compact_periodically(self) -> None:
        """Quiet topics are compacted here (busy ones compact themselves as they grow), so
        tombstones and expired commands do not linger."""
        while not self._stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.settings.compaction_interval_s)
            if self._stop.is_set():
                return
            for spec in CATALOGUE:
                try:
                    await self.log.compact(spec.name)
                except Exception:
                    log.exception("compaction of %s failed; will retry", spec.name)

    async def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            await self.ingest.close()
        if self._runtime_task is not None:  # its steps end their batch and the rebuild
            # report takes its last look (a short rebuild says it is done) before any cancel
            await asyncio.wait({self._runtime_task}, timeout=RUNTIME_STOP_GRACE_S)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.executor is not None:
            # Idle by now; waiting reaps the workers (and lets RUSAGE_CHILDREN see them).
            self.executor.shutdown(wait=True, cancel_futures=True)
        with contextlib.suppress(Exception):
            await self.log.close()
        with contextlib.suppress(Exception):
            self.plane.close()
        with contextlib.suppress(Exception):
            self.services.bundle.sessions.close()
        with contextlib.suppress(Exception):
            self.views.close()
        with contextlib.suppress(Exception):
            self.manifest.close()
        self._lock.release()

    async def __aenter__(self) -> EmbeddedApp:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
