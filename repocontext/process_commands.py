"""The distributed deployables' commands: `worker` (processor and vector steps), `query` (a
query replica) and `git-source` (a polled git URL), each over a kafka:// log."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from pathlib import Path
from signal import SIGINT, SIGTERM
from typing import TYPE_CHECKING, Any

from query_api.errors import UsageError
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from repocontext.command_io import http_tokens, out
from repocontext.data_dir import secure_data_dir
from schemas.topics import CATALOGUE

if TYPE_CHECKING:
    from streams.eventlog.kafka import KafkaEventLog
    from streams.runtime.faust_app import StepApp
    from streams.runtime.faust_vectors import FaustVectorStep
    from streams.topology import Step

log = logging.getLogger("repocontext")


def _vector_step(settings: Settings, log_: KafkaEventLog) -> FaustVectorStep:
    """The vector step of a worker: the configured embedder into the shared Qdrant server."""
    from query_api.retrieval.vector_plane import embedder_from, vector_store_for
    from streams.runtime.faust_vectors import FaustVectorStep
    from streams.vectors_step import VectorIndexer

    if settings.vector_store != "qdrant" or not settings.qdrant_url:
        raise UsageError(
            "the vectors step writes to the Qdrant server that query replicas read; "
            "set REPOCONTEXT_VECTOR_STORE=qdrant and REPOCONTEXT_QDRANT_URL"
        )
    embedder = embedder_from(settings)
    if embedder.space is None:
        raise UsageError("the vectors step needs an embedder (not `none`)")
    store = vector_store_for(settings, embedder.space)
    indexer = VectorIndexer(log_, embedder, store, ann_min_points=settings.ann_min_points)
    return FaustVectorStep(log_, indexer, settings.data_dir / "faust")


def _worker_apps(
    step_ids: list[str] | None, settings: Settings, log_: KafkaEventLog
) -> tuple[list[StepApp], FaustVectorStep | None]:
    """The step apps `--step` names (none: every processor step, and the vector step when a
    Qdrant server and an embedder are configured); the vector step's app also on its own."""
    from streams.runtime.faust_app import FaustStep, processor_steps
    from streams.topology import VECTORS_STEP_ID

    wanted = list(step_ids or ())
    vectors = (
        VECTORS_STEP_ID in wanted
        if wanted
        else settings.vector_store == "qdrant" and settings.embedder != "none"
    )
    named = [s for s in wanted if s != VECTORS_STEP_ID]
    try:
        steps = processor_steps(named) if named or not wanted else []
    except ValueError as exc:
        raise UsageError(f"--step: {exc}; or `vectors`") from exc
    apps: list[StepApp] = [
        FaustStep(log_, s, settings.data_dir / "faust", batch_size=settings.batch_size)
        for s in steps
    ]
    vector_app = _vector_step(settings, log_) if vectors else None
    if vector_app is not None:
        apps.append(vector_app)
    return apps, vector_app


def _rederive_steps(asked: list[str] | None, apps: list[StepApp]) -> list[Step]:
    """The processor steps a worker's re-derivation pass may cover; `--rederive` naming any
    other step is refused before anything runs."""
    from streams.runtime.faust_app import FaustStep

    steps = [a.step for a in apps if isinstance(a, FaustStep) and a.step.kind == "processor"]
    unknown = sorted(set(asked or ()) - {s.step_id for s in steps})
    if unknown:
        raise UsageError(
            f"--rederive {', '.join(unknown)}: not a processor step this worker runs (its "
            f"steps: {', '.join(s.step_id for s in steps) or 'none'}; memory and vectors are "
            "not re-derived)"
        )
    return steps


async def _rederive(log_: KafkaEventLog, steps: list[Step], asked: list[str]) -> dict[str, Any]:
    """Run the re-derivation passes beside the steps (streams/runtime/rederive_pass.py); a
    failed pass is logged and resumes at the worker's next start."""
    from streams.errors import EventLogError
    from streams.runtime.rederive_pass import rederive_steps

    try:
        return {k: vars(v) for k, v in (await rederive_steps(log_, steps, asked)).items()}
    except EventLogError as exc:  # the broker away or refusing: one line, the worker says why
        logging.getLogger(__name__).error(
            "worker: re-derivation failed (%s); resumes at restart", exc
        )
        return {}
    except Exception:
        logging.getLogger(__name__).exception("worker: re-derivation failed; resumes at restart")
        return {}


async def cmd_worker(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    """Distributed processor worker: the topology's processor steps as faust agents, one
    consumer group per step (streams/runtime/faust_app.py), and the vector step
    (streams/runtime/faust_vectors.py). With no --step: every processor step, and the vector
    step when a Qdrant server and an embedder are configured."""
    from repocontext.distributed import WorkerOps
    from streams.errors import UnknownTopicError
    from streams.eventlog.factory import open_event_log
    from streams.eventlog.kafka import KafkaEventLog
    from streams.runtime.faust_app import run_apps

    url = settings.resolved_log_url()
    log_ = open_event_log(url, **settings.event_log_options())
    if not isinstance(log_, KafkaEventLog):
        await log_.close()
        raise UsageError(f"needs REPOCONTEXT_LOG_URL=kafka://..., not {url}")
    apps, vector_app = _worker_apps(args.step, settings, log_)
    asked = list(args.rederive or ())
    rederive = asyncio.create_task(_rederive(log_, _rederive_steps(asked, apps), asked))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    for noisy in ("faust", "mode", "aiokafka"):  # their INFO is per-rebalance chatter
        if not getattr(args, "verbose", False):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    ops = None
    try:
        logging.getLogger(__name__).info("worker: steps %s on %s", [a.step_id for a in apps], url)
        if args.metrics_port is not None:  # /health/* and /metrics (repocontext/distributed.py)
            ops = WorkerOps(settings, args.metrics_port, log_, apps)
        try:
            await run_apps(apps, stop)
        except UnknownTopicError as exc:  # faust never creates topics: provisioning does
            raise SystemExit(f"repocontext worker: {exc} (run `repocontext topics`)") from exc
        passes = await rederive if rederive.done() else {}
        out(
            {a.step_id: vars(a.counters) for a in apps}
            | ({"rederived": passes} if asked or passes else {})
        )
    finally:
        rederive.cancel()
        if ops is not None:
            await ops.close()
        if vector_app is not None:
            vector_app.close()
        await log_.close()
    return 0


async def cmd_query(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    """Distributed query replica: the view sink alone materialises the record topics of the
    kafka:// log into this replica's own views (their offsets in the same database, so a
    restart resumes). Code is written by sources and workers; memory and claim tools append
    commands that the memory step of `repocontext worker` applies, and wait for the verdict
    (unless --read-only)."""
    from query_api.server.admission import HttpLimits
    from query_api.server.http_app import build_http_app
    from query_api.server.http_serve import bind_listener, serve_http
    from repocontext.distributed import (
        attach_replica,
        rebuild_outlived_views,
        replica_id,
        replica_mcp_server,
        replica_options,
    )
    from streams.eventlog.factory import open_event_log

    if not settings.resolved_log_url().startswith("kafka://"):
        raise UsageError("needs REPOCONTEXT_LOG_URL=kafka://...")
    tokens = http_tokens(settings)  # the same fail-closed rules as `serve`
    if isinstance(tokens, int):
        return tokens
    listener = bind_listener(settings.host, settings.port)
    secure_data_dir(settings.data_dir)
    rid = replica_id(settings)  # its own consumer group: views.<id>
    check = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
    try:  # views that outlived the log's tombstones (or its start) are rebuilt from scratch
        await rebuild_outlived_views(settings, check)
    finally:
        await check.close()
    # On a shared Qdrant server the vectors are the worker's (`--step vectors`); with an
    # in-process store each replica embeds for itself.
    async with EmbeddedApp(
        settings,
        vector_writer=settings.vector_store != "qdrant",
        replica=replica_options(settings, rid),  # the view sink alone, its group, its lag bound
    ) as app:
        attach_replica(app)  # its shard noted in the views, its metrics
        await app.start(resume=False)  # no sources here: nothing to watch
        limits = HttpLimits.from_settings(settings)
        asgi = build_http_app(
            replica_mcp_server(app, settings),  # a sharded one forwards other shards' calls
            app.service,
            settings.host,
            tokens,
            limits,
            require_token_for_metrics=settings.require_token_for_metrics,
        )
        await serve_http(asgi, listener, "query replica: MCP")
    return 0


async def cmd_git_source(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    """The git source: poll URL/ref and publish exactly what changed (streams/sources)."""
    import dataclasses

    from repocontext.distributed import source_ops
    from streams.eventlog.factory import open_event_log
    from streams.sources.git_credentials import GitCredentials, split_credentials
    from streams.sources.git_poller import GitPoller, GitSource

    if not args.repo_id:
        raise UsageError("--repo-id is required (the repository id its files are published under)")
    secure_data_dir(settings.data_dir)
    if split_credentials(args.url)[1] is not None:
        log.warning(
            "the git-source URL carries credentials, which every local user can read in this "
            "process's command line; set REPOCONTEXT_GIT_USERNAME / REPOCONTEXT_GIT_PASSWORD "
            "instead (git itself never sees them in its argv)"
        )
    configured = None
    if settings.git_username is not None or settings.git_password is not None:
        configured = GitCredentials(settings.git_username or "", settings.git_password or "")
    source = GitSource(
        args.repo_id, args.url, args.ref, args.depth or None, args.refresh_s, configured
    )
    log_ = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
    try:
        await log_.create_topics(CATALOGUE)
        poller = GitPoller(
            log_, source, settings.data_dir / "git-staging", settings.child_environment()
        )
        if args.once:
            await poller.register()
            result = await poller.poll_once()
            out(dataclasses.asdict(result))
            return 0 if result.status != "fetch_failed" else 1
        stop = asyncio.Event()
        for sig in (SIGTERM, SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        ops = None if args.metrics_port is None else source_ops(settings, args.metrics_port, poller)
        try:
            await poller.run(stop)
        finally:
            if ops is not None:
                await ops.stop()
    finally:
        await log_.close()
    return 0
