"""The CLI's subcommands, each an async function of (args, settings, path) -> exit code.

The distributed deployables' commands live in process_commands.py; they are named here too,
so the CLI finds every `cmd_<name>` in one module."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import resource
import time
from collections.abc import Callable
from pathlib import Path
from signal import SIGINT, SIGTERM
from typing import Any

from query_api.errors import QueryApiError, UsageError
from query_api.settings import Settings
from repocontext.agent_socket import (
    AgentListener,
    Hello,
    OwnerLink,
    own_or_attach,
)
from repocontext.app import DataDirLock, EmbeddedApp
from repocontext.command_io import http_tokens, out
from repocontext.data_dir import holds_no_log, secure_data_dir
from repocontext.pipeline_progress import embed_all, reconcile_in_stages, replay_in_stages
from repocontext.process_commands import cmd_git_source as cmd_git_source
from repocontext.process_commands import cmd_query as cmd_query
from repocontext.process_commands import cmd_worker as cmd_worker
from repocontext.progress import ProgressReporter
from repocontext.status_command import cmd_status as cmd_status
from repocontext.stdio_lines import stdio_transport
from repocontext.stdio_proxy import StdioProxy, take_over
from schemas import tools as t
from schemas.topics import CATALOGUE
from streams.errors import StorageFull

log = logging.getLogger("repocontext")


async def cmd_serve(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    # the HTTP transport (starlette, sse-starlette, uvicorn) is imported by the commands that
    # listen on HTTP only: `mcp` speaks stdio and starts faster without it
    from query_api.server.admission import HttpLimits
    from query_api.server.http_app import build_http_app
    from query_api.server.http_serve import bind_listener, serve_http
    from query_api.server.search_readers import start_search_readers

    tokens = http_tokens(settings)
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
    readers = None
    try:
        await app.start(vectors=False)
        if path is not None:
            await app.service.ensure_repo(str(path), args.repo_id)
        app.start_vectors()  # after the keyword index of PATH: the first answers come first
        readers = await start_search_readers(
            app.service, settings.search_readers, settings.embedder, app.keyword_index_settled
        )
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
        log.info("stopping: no new calls; closing the log, the views and the vector store")
    finally:
        if readers is not None:
            await readers.close()
        await app.close()
    log.info("stopped; %s closed cleanly", settings.data_dir)
    return 0


async def cmd_mcp(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    # SIGTERM and Ctrl-C cancel the session so the app still closes (log flushed, workers
    # reaped); Ctrl-C then exits 130, as every command does (docs/cli.md)
    task = asyncio.current_task()
    interrupted = asyncio.Event()
    if task is not None:

        def interrupt() -> None:
            interrupted.set()
            task.cancel()

        loop = asyncio.get_running_loop()
        loop.add_signal_handler(SIGTERM, task.cancel)
        loop.add_signal_handler(SIGINT, interrupt)
    try:
        return await _serve_stdio(args, settings, path)
    except asyncio.CancelledError:
        return 130 if interrupted.is_set() else 0


def _agent_hello(args: argparse.Namespace, settings: Settings, path: Path | None) -> Hello:
    """How an MCP server (stdio or HTTP) introduces itself to the data directory's owner."""
    return Hello(
        "mcp",
        None if path is None else str(path),
        args.repo_id,
        settings.tool_profile,
        readOnly=not settings.enable_writes,
    )


async def _serve_stdio(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
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
    from query_api.server.search_readers import start_search_readers

    app = opened
    readers = None
    try:
        await app.start(vectors=False)
        if path is not None:
            await app.service.ensure_repo(str(path), args.repo_id)
        app.start_vectors()  # after the keyword index of PATH: the first answers come first
        readers = await start_search_readers(
            app.service, settings.search_readers, settings.embedder, app.keyword_index_settled
        )
        server = app.mcp_server()
        # read on the loop: SIGTERM and Ctrl-C end the session
        async with AgentListener(app), stdio_transport() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        if readers is not None:
            await readers.close()
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
        out(opened.answer["result"])
        return None
    return opened


NO_EMBEDDER_FOR_VECTORS = "--vectors needs an embedder; this one is off (--embedder none)"


async def cmd_index(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    assert path is not None
    started = time.perf_counter()
    vectors: dict[str, int] | None = None
    dead: int | None = None
    owner_indexed = False  # this process's memory figures then measure none of the work
    if args.vectors and settings.embedder == "none":  # said before the data directory exists
        raise UsageError(NO_EMBEDDER_FOR_VECTORS)
    with ProgressReporter(f"indexing {path.name}") as progress:
        progress.stage("reading files")
        hello = Hello("index", str(path), args.repo_id, progress=True)
        try:
            opened = await own_or_attach(
                lambda: EmbeddedApp(settings, watch=False, on_progress=progress),
                settings.data_dir,
                hello,
                _owner_progress(progress),
            )
        except StorageFull as exc:  # no room even to open: a script still reads a result
            out({"repoId": args.repo_id, "status": "Failed", "error": str(exc)})
            raise
        if isinstance(opened, OwnerLink):  # a server owns the data directory: it indexed
            opened.writer.close()
            repo_id, status = opened.answer["repoId"], opened.answer["job"]
            files, owner_indexed = opened.answer["filesIndexed"], True
        else:
            app = opened
            try:
                if args.vectors and app.plane.indexer is None:
                    raise UsageError(NO_EMBEDDER_FOR_VECTORS)
                await app.start(resume=False)
                registration = await app.service.ensure_repo(str(path), args.repo_id, launch=False)
                repo_id = registration.repo_id
                await reconcile_in_stages(app, registration, progress)
                status = app.ingest.job(repo_id) or {}
                if args.vectors and status.get("status") == "Completed":
                    vectors = await embed_all(app, progress)
                files = app.views.file_count(repo_id)
                dead = app.runtime.counters.dead_letters
                if status.get("status") == "Completed":  # the views caught up: compact them
                    await asyncio.to_thread(app.views.compact_first_build)
            finally:
                await app.close()
    seconds = time.perf_counter() - started
    scanned = int(status.get("filesScanned") or 0)
    out(
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
            "ignoreRulesDropped": status.get("ignoreRulesDropped"),
            "ignoreRulesDroppedPaths": status.get("ignoreRulesDroppedPaths"),
            "filesIndexed": files,
            "deadLetters": dead,
            "vectorPassages": vectors,
            "seconds": round(seconds, 3),
            "filesPerSecond": round(scanned / seconds, 1) if seconds else None,
            **({} if owner_indexed else _peak_rss()),
            "error": status.get("error"),
        }
    )
    return 0 if status.get("status") == "Completed" else 1


def _peak_rss() -> dict[str, float]:
    """This process's and its reading workers' peak RSS: the cost of an index it ran."""
    return {
        "peakRssMiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "workersPeakRssMiB": round(
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
        ),
    }


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
    out(result)
    return 0


async def cmd_eval(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    assert path is not None
    from query_api.evaluation.history import head_commit, shallow_refusal

    if head_commit(path) is None:  # before indexing: eval has nothing to mine
        raise UsageError(f"{path} has no git history; eval mines its commits (run it in a clone)")
    if (shallow := shallow_refusal(path)) is not None:
        raise UsageError(shallow)
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
    out(result)
    return 0


async def cmd_replay(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
    """Drop every projection and re-consume the log. Memory the views hold but the log lost
    is exported to a file in the data directory first (repocontext/memory_rescue.py)."""
    from repocontext.memory_rescue import rescue_memory

    # A mistyped --data-dir was created and "replayed" with 0 records and exit 0. Views without
    # a log still replay: that is the remedy for a lost log.db (their memory is rescued).
    if holds_no_log(settings.data_dir, settings.log_url) and not settings.views_path.exists():
        raise UsageError(
            f"{settings.data_dir} holds no repocontext log (log.db) or views, so nothing to "
            "replay; check --data-dir or REPOCONTEXT_DATA_DIR"
        )
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
            await asyncio.to_thread(app.views.compact_first_build)  # rebuilt from empty
            vectors: dict[str, int] | None = None
            if app.plane.indexer is not None:  # the vectors too, re-verified by content address
                await app.plane.indexer.rewind()
                vectors = await embed_all(app, progress)
            repos = [r.repo_id for r in app.views.list_repos()]
            files = sum(app.views.file_count(r) for r in repos)
    out(
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

    if holds_no_log(settings.data_dir, settings.log_url):  # nothing written: say so, create nothing
        out([{**spec.model_dump(), "endOffsets": [0] * spec.partitions} for spec in CATALOGUE])
        return 0
    secure_data_dir(settings.data_dir)
    log_ = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
    try:
        await log_.create_topics(CATALOGUE)
        rows = []
        for spec in CATALOGUE:
            ends = [await log_.end_offset(spec.name, p) for p in range(spec.partitions)]
            rows.append({**spec.model_dump(), "endOffsets": ends})
        out(rows)
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
            if holds_no_log(settings.data_dir, settings.log_url):
                raise UsageError(
                    f"{settings.data_dir} holds no repocontext log (log.db), so no memory to "
                    "export; check --data-dir or REPOCONTEXT_DATA_DIR"
                )
            secure_data_dir(settings.data_dir)
            log_ = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
            try:
                await log_.create_topics(CATALOGUE)
                entries = await mt.current_entries(log_, args.repo_id)
            finally:
                await log_.close()
            written = mt.write_export(file, entries, args.repo_id, time.time())
            out({"file": str(file), "entries": written, "expiredLeftOut": len(entries) - written})
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
        out({"file": str(file), "entries": len(to_import), **counts})
        return 0
    except QueryApiError as exc:
        log.error("memory %s: %s", args.memory_command, exc)
        return 2
