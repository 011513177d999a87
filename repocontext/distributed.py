"""Wiring of the distributed processes' operations side: a query replica's identity, its
rebuild check and its readiness bound; the health and metrics listener of workers and git
sources (deploy/DISTRIBUTED.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mcp.server.lowlevel import Server

from query_api.server.http_serve import bind_listener
from query_api.server.lag_metrics import (
    ReplicaCollector,
    SourceCollector,
    WorkerCollector,
    register,
    source_not_ready,
)
from query_api.server.ops_http import OpsServer, ops_app
from query_api.settings import Settings
from repocontext.app import EmbeddedApp, ReplicaOptions
from streams.errors import EventLogError
from streams.eventlog.base import EventLog
from streams.runtime.view_staleness import record_shard, views_outlived_log
from streams.runtime.worker_monitor import MonitoredStep, WorkerMonitor
from streams.sources.git_poller import GitPoller
from streams.topology import VIEW_SINK_GROUP, VIEW_TOPICS

log = logging.getLogger("repocontext")
STALENESS_CHECK_S = 15.0  # a broker that does not answer at start: resume, the check is skipped
REPLICA_POLL_S = 0.2  # a replica's idle poll: one batched end-offset request to the broker


def replica_id(settings: Settings) -> str:
    """REPOCONTEXT_REPLICA_ID, else an id made once and kept in the data directory, so a
    restarted replica keeps its consumer group."""
    if settings.replica_id:
        return settings.replica_id
    path = settings.data_dir / "replica-id"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        made = uuid.uuid4().hex[:12]
        path.write_text(made + "\n")
        return made


async def rebuild_outlived_views(settings: Settings, event_log: EventLog) -> str | None:
    """Before a replica opens its views: delete them when they outlived the log
    (streams/runtime/view_staleness.py), so the sink reads everything again; the reason."""
    from repocontext.app import open_views

    if not settings.views_path.exists():
        return None
    views = open_views(settings.views_path)
    try:
        reason = await asyncio.wait_for(
            views_outlived_log(
                event_log,
                views,
                VIEW_SINK_GROUP,
                VIEW_TOPICS,
                settings.compaction_tombstone_retention_s,
                time.time(),
                settings.shard(),
            ),
            STALENESS_CHECK_S,
        )
    except (EventLogError, TimeoutError) as exc:
        log.warning("query replica: could not compare the views with the log (%s)", exc)
        reason = None
    finally:
        views.close()
    if reason is not None:
        log.warning("query replica: rebuilding the views from the log: %s", reason)
        for suffix in ("", "-wal", "-shm"):
            Path(str(settings.views_path) + suffix).unlink(missing_ok=True)
    return reason


def replica_options(settings: Settings, rid: str) -> ReplicaOptions:
    """What the app is built with to be a query replica: its own consumer group, so every
    replica's lag is its own in the broker, its readiness bound on that lag, and its shard."""
    return ReplicaOptions(
        sink_group=f"{VIEW_SINK_GROUP}.{rid}",
        poll_seconds=REPLICA_POLL_S,
        max_ready_lag=settings.ready_max_lag_events,
        shard=settings.shard(),
    )


def attach_replica(app: EmbeddedApp) -> None:
    """Note the replica's shard in its views and register its metrics (what it runs:
    replica_options)."""
    record_shard(app.runtime.views, app.runtime.shard)
    if not app.runtime.shard.whole:
        log.info("query replica: shard %s of the repositories", app.runtime.shard.label)
    group = app.runtime.sink_group or VIEW_SINK_GROUP  # the group its view sink commits as
    register(ReplicaCollector(app.runtime, group, lambda: not app.service.not_ready_reasons()))


def replica_mcp_server(app: EmbeddedApp, settings: Settings) -> Server[Any, Any]:
    """The replica's MCP server; a sharded one forwards (or refuses, naming the owner) calls
    for repositories another shard holds (repocontext/shard_routing.py)."""
    from repocontext.shard_routing import ShardRouter

    server = app.mcp_server()
    if not settings.shard().whole:
        ShardRouter(settings.shard(), settings).install(server)
    return server


def _ops_server(
    settings: Settings, port: int, what: str, not_ready: Callable[[], list[str]]
) -> OpsServer:
    server = OpsServer(
        ops_app(what, not_ready), bind_listener(settings.host, port, "--metrics-port")
    )
    server.start()
    return server


class WorkerOps:
    """A worker's /health/* and /metrics (`--metrics-port`), with the background measurement
    of its consumer groups; `close()` stops both."""

    def __init__(
        self, settings: Settings, port: int, event_log: EventLog, steps: Sequence[MonitoredStep]
    ) -> None:
        self.monitor = WorkerMonitor(event_log, steps)
        register(WorkerCollector(self.monitor))
        self._stop = asyncio.Event()
        self._watch = asyncio.create_task(self.monitor.watch.run(self._stop))
        self._server = _ops_server(settings, port, "worker", self.monitor.not_ready)

    async def close(self) -> None:
        self._stop.set()
        await self._server.stop()
        await self._watch


def source_ops(settings: Settings, port: int, poller: GitPoller) -> OpsServer:
    """A git source's /health/* and /metrics (`--metrics-port`)."""
    register(SourceCollector(poller))
    return _ops_server(settings, port, "git-source", lambda: source_not_ready(poller))
