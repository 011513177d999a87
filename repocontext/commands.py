"""The CLI's subcommands, each an async function of (args, settings, path) -> exit code."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import resource
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from signal import SIGINT, SIGTERM
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from query_api.access.auth import AuthConfigError, TokenTable
from query_api.answers.render import pruned
from query_api.errors import QueryApiError, UsageError
from query_api.settings import Settings
from repocontext.agent_socket import (
    AgentListener,
    Hello,
    OwnerLink,
    own_or_attach,
)
from repocontext.app import DataDirLock, EmbeddedApp
from repocontext.data_dir import secure_data_dir
from repocontext.pipeline_progress import embed_all, reconcile_in_stages, replay_in_stages
from repocontext.progress import ProgressReporter
from repocontext.stdio_proxy import StdioProxy, take_over
from schemas import tools as t
from schemas.topics import CATALOGUE
from streams.stores.views.handlers import default_registry

if TYPE_CHECKING:
    from streams.eventlog.kafka import KafkaEventLog
    from streams.runtime.faust_app import StepApp
    from streams.runtime.faust_vectors import FaustVectorStep
    from streams.topology import Step

log = logging.getLogger("repocontext")


def _out(payload: object) -> None:
    """A command's JSON on stdout, without the nulls (a tool answer's pruning, query_api/
    answers/render.py: an absent field says what a null said)."""
    shown = pruned(payload) if isinstance(payload, BaseModel) else _without_nulls(payload)
    sys.stdout.write(json.dumps(shown, indent=2, default=str) + "\n")
    sys.stdout.flush()


def _without_nulls(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _http_tokens(settings: Settings) -> TokenTable | int | None:
    """The bearer-token table of an HTTP listener, or an exit status when it must not start:
    a broken token file, or a non-loopback bind with no tokens and no authenticating proxy
    (fail closed)."""
    from query_api.server.http_app import LOOPBACK

    tokens = None
    if settings.auth_file is not None:
        try:
            tokens = TokenTable.load(settings.auth_file)
        except AuthConfigError as exc:
            log.error("%s", exc)
            return 2
        log.info("bearer-token authentication on: %d tokens", len(tokens))
    if settings.host not in LOOPBACK and tokens is None and not settings.behind_auth_proxy:
        log.error(
            "refusing to serve on %s without authentication; configure tokens "
            "(REPOCONTEXT_AUTH_FILE), bind to 127.0.0.1, or set "
            "REPOCONTEXT_BEHIND_AUTH_PROXY=true when an authenticating proxy fronts it",
            settings.host,
        )
        return 2
    if settings.require_token_for_metrics and tokens is None:
        log.warning(
            "REPOCONTEXT_REQUIRE_TOKEN_FOR_METRICS has no effect without a token file "
            "(REPOCONTEXT_AUTH_FILE): /metrics and /health/ready stay open"
        )
    return tokens


async def cmd_serve(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    # the HTTP transport (starlette, sse-starlette, uvicorn) is imported by the commands that
    # listen on HTTP only: `mcp` speaks stdio and starts faster without it
    from query_api.server.admission import HttpLimits
    from query_api.server.http_app import build_http_app
    from query_api.server.http_serve import bind_listener, serve_http

    tokens = _http_tokens(settings)
    if isinstance(tokens, int):
        return tokens
    listener = bind_listener(settings.host, settings.port)  # fails before the data dir is used
    hello = _agent_hello(args, settings, path)
    try:  # the owner, or attached to the live process that owns the data directory
        opened = await own_or_attach(lambda: EmbeddedApp(settings), settings.data_dir, hello)
    except BaseException:
        listener.close()
        raise
    if isinstance(opened, OwnerLink):  # it registered PATH; our sessions go through it
        opened.writer.close()
        from repocontext.serve_attached import serve_through_owner

        return await serve_through_owner(opened, hello, settings, tokens, listener)
    app = opened
    try:
        await app.start(vectors=False)
        if path is not None:
            await app.service.ensure_repo(str(path), args.repo_id)
        app.start_vectors()  # after the keyword index of PATH: the first answers come first
        server = app.mcp_server()
        limits = HttpLimits.from_settings(settings)
        asgi = build_http_app(
            server,
            app.service,
            settings.host,
            tokens,
            limits,
            require_token_for_metrics=settings.require_token_for_metrics,
        )
        async with AgentListener(app):  # stdio agents on this data directory attach here
            await serve_http(asgi, listener, "MCP")
    finally:
        await app.close()
    return 0


async def cmd_mcp(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    from mcp.server.stdio import stdio_server

    # SIGTERM cancels the session so the app still closes (log flushed, workers reaped).
    task = asyncio.current_task()
    if task is not None:
        asyncio.get_running_loop().add_signal_handler(SIGTERM, task.cancel)
    try:
        return await _serve_stdio(args, settings, path, stdio_server)
    except asyncio.CancelledError:
        return 0


def _agent_hello(args: argparse.Namespace, settings: Settings, path: Path | None) -> Hello:
    """How an MCP server (stdio or HTTP) introduces itself to the data directory's owner."""
    return Hello(
        "mcp",
        None if path is None else str(path),
        args.repo_id,
        settings.tool_profile,
        readOnly=not settings.enable_writes,
    )


async def _serve_stdio(
    args: argparse.Namespace, settings: Settings, path: Path | None, stdio_server: Any
) -> int:
    hello = _agent_hello(args, settings, path)

    def make_app() -> EmbeddedApp:
        return EmbeddedApp(settings)

    opened = await own_or_attach(make_app, settings.data_dir, hello)
    if isinstance(opened, OwnerLink):  # another process owns the data directory: serve via it
        log.info(
            "mcp: %s is in use by pid %s; serving through it",
            settings.data_dir,
            opened.answer.get("pid"),
        )
        async with contextlib.AsyncExitStack() as owned:  # what taking over opens, if it must
            proxy = StdioProxy(
                opened,
                settings.data_dir,
                lambda: take_over(make_app, settings.data_dir, hello, owned),
            )
            return await proxy.run()
    app = opened
    try:
        await app.start(vectors=False)
        if path is not None:
            await app.service.ensure_repo(str(path), args.repo_id)
        app.start_vectors()  # after the keyword index of PATH: the first answers come first
        server = app.mcp_server()
        async with AgentListener(app), stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await app.close()
    return 0


def _owner_progress(progress: ProgressReporter) -> Callable[[dict[str, Any]], None]:
    """Shows the progress lines of a server that indexes for us as our own."""
    shown = ["reading files"]

    def show(update: dict[str, Any]) -> None:
        if update["stage"] != shown[-1]:
            progress.stage(update["stage"])
            shown.append(update["stage"])
        progress(update["done"], update["total"])

    return show


async def _open_unless_the_owner_answers(
    settings: Settings, hello: Hello, progress: ProgressReporter | None = None
) -> EmbeddedApp | None:
    """Our own app, or None when a live process owns the data directory: it did the work
    `hello` asks for and its result is printed."""
    opened = await own_or_attach(
        lambda: EmbeddedApp(settings, watch=False, on_progress=progress),
        settings.data_dir,
        hello,
        _owner_progress(progress) if progress is not None else None,
    )
    if isinstance(opened, OwnerLink):
        opened.writer.close()
        _out(opened.answer["result"])
        return None
    return opened


async def cmd_index(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    assert path is not None
    started = time.perf_counter()
    vectors: dict[str, int] | None = None
    dead: int | None = None
    with ProgressReporter(f"indexing {path.name}") as progress:
        progress.stage("reading files")
        hello = Hello("index", str(path), args.repo_id, progress=True)
        opened = await own_or_attach(
            lambda: EmbeddedApp(settings, watch=False, on_progress=progress),
            settings.data_dir,
            hello,
            _owner_progress(progress),
        )
        if isinstance(opened, OwnerLink):  # a server owns the data directory: it indexed
            opened.writer.close()
            repo_id, status = opened.answer["repoId"], opened.answer["job"]
            files = opened.answer["filesIndexed"]
        else:
            app = opened
            try:
                if args.vectors and app.plane.indexer is None:
                    raise UsageError(
                        "--vectors needs an embedder; this one is off (--embedder none)"
                    )
                await app.start(resume=False)
                registration = await app.service.ensure_repo(str(path), args.repo_id, launch=False)
                repo_id = registration.repo_id
                await reconcile_in_stages(app, registration, progress)
                status = app.ingest.job(repo_id) or {}
                if args.vectors and status.get("status") == "Completed":
                    vectors = await embed_all(app, progress)
                files = app.views.file_count(repo_id)
                dead = app.runtime.counters.dead_letters
            finally:
                await app.close()
    seconds = time.perf_counter() - started
    scanned = int(status.get("filesScanned") or 0)
    _out(
        {
            "repoId": repo_id,
            "status": status.get("status"),
            "filesScanned": scanned,
            "filesAdded": status.get("filesAdded"),
            "filesUpdated": status.get("filesUpdated"),
            "filesRemoved": status.get("filesRemoved"),
            "filesUnchanged": status.get("filesUnchanged"),
            "filesUnreadable": status.get("filesUnreadable"),
            "unreadablePaths": status.get("unreadablePaths"),
            "filesSkipped": status.get("filesSkipped"),
            "skippedByReason": status.get("skippedByReason"),
            "filesIndexed": files,
            "deadLetters": dead,
            "vectorPassages": vectors,
            "seconds": round(seconds, 3),
            "filesPerSecond": round(scanned / seconds, 1) if seconds else None,
            "peakRssMiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "workersPeakRssMiB": round(
                resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
            ),
            "error": status.get("error"),
        }
    )
    return 0 if status.get("status") == "Completed" else 1


async def cmd_search(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    assert path is not None
    with ProgressReporter(f"indexing {path.name}") as progress:  # a first search indexes
        progress.stage("reading files")
        hello = Hello("search", str(path), args.repo_id, progress=True, query=args.query, k=args.k)
        opened = await _open_unless_the_owner_answers(settings, hello, progress)
        if opened is None:  # a server owns the data directory: it answered
            return 0
        try:
            await opened.start(resume=False)
            registration = await opened.service.ensure_repo(str(path), args.repo_id, launch=False)
            await reconcile_in_stages(opened, registration, progress)
            query = t.SearchArgs(repoId=registration.repo_id, query=args.query, k=args.k)
            result = await opened.service.search(query)
        finally:
            await opened.close()
    _out(result)
    return 0


async def cmd_eval(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    assert path is not None
    from query_api.evaluation.history import head_commit

    if head_commit(path) is None:  # before indexing: eval has nothing to mine
        raise UsageError(f"{path} has no git history; eval mines its commits (run it in a clone)")
    with ProgressReporter(f"evaluating {path.name}") as progress:
        progress.stage("reading files")
        hello = Hello(
            "eval",
            str(path),
            args.repo_id,
            progress=True,
            maxCases=args.max_cases,
            budgetSeconds=args.budget_seconds,
        )
        opened = await _open_unless_the_owner_answers(settings, hello, progress)
        if opened is None:  # a server owns the data directory: it scored
            return 0
        app = opened
        try:
            await app.start(resume=False)
            registration = await app.service.ensure_repo(str(path), args.repo_id, launch=False)
            await reconcile_in_stages(app, registration, progress)
            request = t.EvalArgs(
                repoId=registration.repo_id,
                maxCases=args.max_cases,
                budgetSeconds=args.budget_seconds,
            )
            progress.stage("scoring cases")  # each case through every rung
            result = await app.services.agent.eval(request, on_progress=progress)
        finally:
            await app.close()
    _out(result)
    return 0


async def cmd_status(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    from streams.sources.manifest import Manifest
    from streams.stores.views.store import ViewStore

    if not settings.views_path.exists():  # nothing indexed here: say so, create nothing
        _out({"dataDir": str(settings.data_dir), "repositories": []})
        return 0
    views = ViewStore(settings.views_path, default_registry())
    manifest = Manifest(settings.manifest_path)  # ingest's own state: the jobs
    try:
        repos = []
        for repo in views.list_repos():
            repos.append(
                {
                    "repoId": repo.repo_id,
                    "root": repo.root,
                    "fileCount": views.file_count(repo.repo_id),
                    "job": manifest.get_job(repo.repo_id),
                }
            )
        _out({"dataDir": str(settings.data_dir), "repositories": repos})
    finally:
        manifest.close()
        views.close()
    return 0


async def cmd_replay(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    """Drop every projection and re-consume the log. Memory the views hold but the log lost
    is exported to a file in the data directory first (repocontext/memory_rescue.py)."""
    from repocontext.memory_rescue import rescue_memory

    # Nothing is dropped under a live process: one holding the lock has the views open (its
    # new connections would read a fresh empty file). DataDirBusy says who, in one line.
    lock = DataDirLock(secure_data_dir(settings.data_dir))
    lock.acquire()
    try:
        try:
            rescued = await rescue_memory(settings)
        except QueryApiError as exc:  # the last copy could not be saved: drop nothing
            log.error("replay refused: %s", exc)
            return 2
        for suffix in ("", "-wal", "-shm"):
            target = Path(str(settings.views_path) + suffix)
            if target.exists():
                target.unlink()
    finally:
        lock.release()  # the app takes it again to rebuild
    started = time.perf_counter()
    with ProgressReporter("replaying") as progress:
        async with EmbeddedApp(settings, watch=False) as app:
            done = await replay_in_stages(app, progress)
            vectors: dict[str, int] | None = None
            if app.plane.indexer is not None:  # the vectors too, re-verified by content address
                await app.plane.indexer.rewind()
                vectors = await embed_all(app, progress)
            repos = [r.repo_id for r in app.views.list_repos()]
            files = sum(app.views.file_count(r) for r in repos)
    _out(
        {
            "replayedRecords": done,
            "vectorPassages": vectors,
            "repositories": repos,
            "files": files,
            "memoryRescued": rescued,
            "seconds": round(time.perf_counter() - started, 3),
        }
    )
    return 0


async def cmd_topics(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    from streams.eventlog.factory import open_event_log

    secure_data_dir(settings.data_dir)
    log_ = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
    try:
        await log_.create_topics(CATALOGUE)
        rows = []
        for spec in CATALOGUE:
            ends = [await log_.end_offset(spec.name, p) for p in range(spec.partitions)]
            rows.append({**spec.model_dump(), "endOffsets": ends})
        _out(rows)
    finally:
        await log_.close()
    return 0


def _vector_step(settings: Settings, log_: KafkaEventLog) -> FaustVectorStep:
    """The vector step of a worker: the configured embedder into the shared Qdrant server."""
    from query_api.retrieval.vector_plane import embedder_from, vector_store_for
    from streams.runtime.faust_vectors import FaustVectorStep
    from streams.vectors_step import VectorIndexer

    if settings.vector_store != "qdrant" or not settings.qdrant_url:
        raise SystemExit(
            "repocontext worker: the vectors step writes to the Qdrant server that query "
            "replicas read; set REPOCONTEXT_VECTOR_STORE=qdrant and REPOCONTEXT_QDRANT_URL"
        )
    embedder = embedder_from(settings)
    if embedder.space is None:
        raise SystemExit("repocontext worker: the vectors step needs an embedder (not `none`)")
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
        raise SystemExit(f"repocontext worker: {exc}; or `vectors`") from exc
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
        raise SystemExit(
            f"repocontext worker: --rederive {', '.join(unknown)}: not a processor step this "
            f"worker runs (its steps: {', '.join(s.step_id for s in steps) or 'none'}; memory "
            "and vectors are not re-derived)"
        )
    return steps


async def _rederive(log_: KafkaEventLog, steps: list[Step], asked: list[str]) -> dict[str, Any]:
    """Run the re-derivation passes beside the steps (streams/runtime/rederive_pass.py); a
    failed pass is logged and resumes at the worker's next start."""
    from streams.runtime.rederive_pass import rederive_steps

    try:
        return {k: vars(v) for k, v in (await rederive_steps(log_, steps, asked)).items()}
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
        raise SystemExit(f"repocontext worker: needs REPOCONTEXT_LOG_URL=kafka://..., not {url}")
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
        _out(
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
    tokens = _http_tokens(settings)  # the same fail-closed rules as `serve`
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
        raise SystemExit("repocontext git-source: --repo-id is required")
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
            _out(dataclasses.asdict(result))
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


async def cmd_memory(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    """`memory export FILE` / `memory import FILE` (repocontext/memory_transfer.py)."""
    from repocontext import memory_transfer as mt
    from streams.eventlog.factory import open_event_log

    file = Path(args.file)
    try:
        if args.memory_command == "export":
            secure_data_dir(settings.data_dir)
            log_ = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
            try:
                await log_.create_topics(CATALOGUE)
                entries = await mt.current_entries(log_, args.repo_id)
            finally:
                await log_.close()
            written = mt.write_export(file, entries, args.repo_id, time.time())
            _out({"file": str(file), "entries": written, "expiredLeftOut": len(entries) - written})
            return 0
        to_import = mt.read_export(file, args.repo_id)  # a bad file is refused here
        hello = Hello("memory-import", repoId=args.repo_id, file=str(file.resolve()))
        opened = await _open_unless_the_owner_answers(settings, hello)
        if opened is None:  # a server owns the data directory: it merged
            return 0
        app = opened
        try:
            await app.start(resume=False)  # the runtime applies the commands in the background
            memory = app.services.memory.reader.memory
            counts = await mt.import_entries(
                app.log, app.runtime, memory, to_import, settings.memory_write_timeout_s * 6
            )
        finally:
            await app.close()
        _out({"file": str(file), "entries": len(to_import), **counts})
        return 0
    except QueryApiError as exc:
        log.error("memory %s: %s", args.memory_command, exc)
        return 2
