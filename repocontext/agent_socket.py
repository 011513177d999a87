"""Several agents on one data directory: the process holding its lock (`serve` or `mcp`)
listens on a Unix socket there, and a later `mcp`, `serve` or `index` attaches to it instead of
failing.

One writer per data directory stays the rule (DataDirLock: two watchers would double-publish),
so the owner runs every tool for every attached agent: memory written through one agent is
what the others and the HTTP server read at once. The socket is the user's alone (0600 in the
0700 data directory). A connection opens with one JSON line saying what it wants (`Hello`) and
one JSON line of answer; an `mcp` connection then speaks MCP's stdio framing (one JSON-RPC
message per line), which the attached process pipes to and from its own stdin and stdout
(repocontext/stdio_proxy.py, which also takes over when the owner exits), or, for an attached
`serve`, to and from one of its HTTP sessions (repocontext/serve_attached.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from query_api.access.auth import LOCAL_USER, Principal
from query_api.errors import QueryApiError, ServiceUnavailable
from repocontext.line_transport import line_transport

if TYPE_CHECKING:
    from repocontext.app import EmbeddedApp

log = logging.getLogger("repocontext")

SOCKET_NAME = "agents.sock"
MAX_LINE = 64 * 1024 * 1024  # one JSON-RPC request; the SDK's stdio transport has no bound
UNIX_PATH_MAX = 107  # sun_path's 108 bytes less the terminating NUL (Linux)
WAIT_POLL_S = 0.2  # a one-shot holder (index, eval) releases the lock when it finishes


OwnerProgress = Callable[[dict[str, Any]], None]  # {stage, done, total} from the owner


def socket_path(data_dir: Path) -> Path:
    return data_dir / SOCKET_NAME


# what a one-shot command that attaches says it does through the owner
THROUGH_THE_OWNER = {
    "index": "indexing",
    "search": "indexing",
    "eval": "indexing",
    "memory-import": "importing",
}


@dataclass(frozen=True)
class Hello:
    """What an attaching process asks of the owner: `op` is "mcp", "index", "search", "eval"
    or "memory-import"."""

    op: str
    path: str | None = None
    repoId: str | None = None
    profile: str | None = None
    readOnly: bool = False
    progress: bool = False  # index, search: the owner sends progress lines before its answer
    query: str | None = None  # search
    k: int = 10  # search
    maxCases: int = 200  # eval
    budgetSeconds: float = 300.0  # eval
    file: str | None = None  # memory-import: the export to merge (absolute)
    # mcp: who calls, as {"name", "grants"}, for a `serve` forwarding an HTTP session whose
    # token it checked; absent: the local user. Only the user reaches this socket, and the
    # local user holds every grant, so a principal named here can only narrow what it may do.
    principal: dict[str, Any] | None = None


@dataclass
class OwnerLink:
    """An open connection to the owner, after its answer to our Hello."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    answer: dict[str, Any]


class AgentListener:
    """The owner's side: accepts attached agents for as long as the app is open."""

    def __init__(self, app: EmbeddedApp) -> None:
        self.app = app
        self.path = socket_path(app.settings.data_dir)
        self._server: asyncio.AbstractServer | None = None
        self._connections: set[asyncio.Task[Any]] = set()

    async def __aenter__(self) -> AgentListener:
        if len(os.fsencode(self.path)) > UNIX_PATH_MAX:
            log.warning(
                "%s is too long a path for a Unix socket: other agents cannot attach to this "
                "process (use a shorter --data-dir)",
                self.path,
            )
            return self
        self.path.unlink(missing_ok=True)  # we hold the lock: any socket here is stale
        self._server = await asyncio.start_unix_server(self._accept, self.path, limit=MAX_LINE)
        self.path.chmod(0o600)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is None:
            return
        self._server.close()
        for task in list(self._connections):
            task.cancel()
        for task in list(self._connections):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.path.unlink(missing_ok=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            await self._serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the agent went away
        except asyncio.CancelledError:
            pass  # the owner is closing; asyncio would log a cancelled handler as an error
        finally:
            self._connections.discard(task)
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            hello = Hello(**json.loads(await reader.readline()))
            if hello.op == "index":
                answer = await self._index(hello, writer, rerun=True)
            elif hello.op == "search":
                answer = await self._search(hello, writer)
            elif hello.op == "eval":
                answer = await self._eval(hello, writer)
            elif hello.op == "memory-import":
                answer = await self._import_memory(hello)
            elif hello.op == "mcp":
                caller = _caller(hello)  # refused before anything is registered
                answer = await self._register(hello)
            elif hello.op in ("ping", "watch"):  # watch: held open until this process exits
                answer = {}
            elif hello.op in ("ready", "metrics"):  # for an attached `serve`'s own routes
                answer = await self._health(hello.op)
            else:
                raise QueryApiError(f"unknown op {hello.op!r}")
        except (QueryApiError, TypeError, ValueError) as exc:
            await _send_line(writer, {"ok": False, "error": str(exc)})
            return
        await _send_line(writer, {"ok": True, "pid": os.getpid(), **answer})
        if hello.op == "watch":  # the watcher learns of our exit by this connection's end
            await reader.read()
        if hello.op == "mcp":
            server = self.app.mcp_server(
                profile=hello.profile, writes=not hello.readOnly, caller=caller
            )
            async with line_transport(reader, writer) as (read, write):
                await server.run(read, write, server.create_initialization_options())

    async def _health(self, op: str) -> dict[str, Any]:
        """This process's readiness verdict (with its detail) or its metrics, as its own
        HTTP routes would answer them."""
        from query_api.server.health_http import ServiceHealth

        health = ServiceHealth(self.app.service, None, False)
        if op == "ready":
            status, body = await health.verdict(detail=True)
            return {"status": status, "body": body}
        data, content_type = await health.metrics_text()
        return {"text": data.decode(), "contentType": content_type}

    async def _register(self, hello: Hello) -> dict[str, Any]:
        if hello.path is None:
            return {}
        registration = await self.app.service.ensure_repo(hello.path, hello.repoId)
        return {"repoId": registration.repo_id}

    async def _index(
        self, hello: Hello, writer: asyncio.StreamWriter, *, rerun: bool = False
    ) -> dict[str, Any]:
        """Register (or find) the repository and wait until its pass is done, saying how far
        it got when asked (`{"progress": {stage, done, total}}` lines); the owner keeps
        watching it afterwards. With `rerun` (the `index` command) a repository the owner
        already watches gets a fresh pass, so the answer counts what changed since the last
        one; `search` and `eval` rely on the watch."""
        if hello.path is None:
            raise QueryApiError("index needs a path")
        base = (await self.app.runtime.lag()).applied
        asked = time.time()
        registration = await self.app.service.ensure_repo(hello.path, hello.repoId, rerun=rerun)
        repo_id = registration.repo_id
        pass_ = _Pass(self.app, repo_id, asked, base)
        said: list[dict[str, Any]] = []
        while (job := self.app.ingest.job(repo_id) or {}).get("status") not in (
            "Completed",
            "Failed",
        ):
            if hello.progress:
                await self._say_progress(writer, job, pass_, said)
            await asyncio.sleep(WAIT_POLL_S)
        if hello.progress:  # where it ended (a pass shorter than a poll said nothing yet)
            await self._say_progress(writer, job, pass_, said)
        files = await asyncio.to_thread(self.app.views.file_count, repo_id)
        return {"repoId": repo_id, "job": job, "filesIndexed": files}

    async def _search(self, hello: Hello, writer: asyncio.StreamWriter) -> dict[str, Any]:
        """Index the path as `index` does, then answer the query as the search tool would
        (the same answer a `repocontext search` that owns the data directory prints)."""
        from query_api.answers.render import pruned
        from schemas import tools as t

        if hello.query is None:
            raise QueryApiError("search needs a query")
        indexed = await self._index(hello, writer)
        args = t.SearchArgs(repoId=indexed["repoId"], query=hello.query, k=hello.k)
        return {"result": pruned(await self.app.service.search(args))}

    async def _eval(self, hello: Hello, writer: asyncio.StreamWriter) -> dict[str, Any]:
        """Index the path as `index` does, then score it as the eval tool would, with the
        owner's rungs (its embedder and vectors, not the attaching command's)."""
        from query_api.answers.render import pruned
        from schemas import tools as t

        indexed = await self._index(hello, writer)
        args = t.EvalArgs(
            repoId=indexed["repoId"], maxCases=hello.maxCases, budgetSeconds=hello.budgetSeconds
        )

        def scored(done: int, total: int | None) -> None:
            """Each case scored, as the command shows its own (it said nothing past
            "indexing through it" for minutes)."""
            if hello.progress:
                line = {"progress": {"stage": "scoring cases", "done": done, "total": total}}
                writer.write(json.dumps(line).encode() + b"\n")  # drained with the answer

        return {"result": pruned(await self.app.services.agent.eval(args, on_progress=scored))}

    async def _import_memory(self, hello: Hello) -> dict[str, Any]:
        """Merge an export through this process's memory processor, as `memory import` does
        when it owns the data directory (the file is the attaching user's, and ours)."""
        from repocontext import memory_transfer as mt

        if hello.file is None:
            raise QueryApiError("memory-import needs a file")
        entries = await asyncio.to_thread(mt.read_export, Path(hello.file), hello.repoId)
        memory = self.app.services.memory.reader.memory
        timeout_s = self.app.settings.memory_write_timeout_s * 6
        counts = await mt.import_entries(self.app.log, self.app.runtime, memory, entries, timeout_s)
        return {"result": {"file": hello.file, "entries": len(entries), **counts}}

    async def _say_progress(
        self, writer: asyncio.StreamWriter, job: dict[str, Any], pass_: _Pass, said: list[Any]
    ) -> None:
        """Send where the pass is, when it moved on since the last line (`said[-1]`). When the
        pass left its reading between two polls (a small repository is read within one),
        the reading's final count goes first: the line stayed at `0/?` without it."""
        now = await self._progress(job, pass_)
        leaving = now["stage"] != "reading files" and (
            not said or said[-1]["stage"] == "reading files"
        )
        if leaving and (read := pass_.read()) is not None and (not said or said[-1] != read):
            said.append(read)
            await _send_line(writer, {"progress": read})
        if not said or now != said[-1]:
            said.append(now)
            await _send_line(writer, {"progress": now})

    async def _progress(self, job: dict[str, Any], pass_: _Pass) -> dict[str, Any]:
        """Files read while the pass walks, then records processed since the request came."""
        from repocontext.pipeline_progress import READING_PHASES

        if job.get("phase") in READING_PHASES:
            return pass_.read() or {"stage": "reading files", "done": 0, "total": None}
        base = pass_.base
        lag = await self.app.runtime.lag()
        done, total = lag.applied - base, lag.end - base
        return {"stage": "processing records", "done": done, "total": total}


@dataclass(frozen=True)
class _Pass:
    """The pass an attached `index`, `search` or `eval` waits for: the records processed
    count from `base`; the files read are those of a job started since `asked`, if any (a
    repository already watched is not read again for a search)."""

    app: EmbeddedApp
    repo_id: str
    asked: float
    base: int

    def read(self) -> dict[str, Any] | None:
        tracker = self.app.ingest.jobs.get(self.repo_id)
        if tracker is None or (tracker.started_at or 0.0) < self.asked:
            return None
        done, total = tracker.reading
        return {"stage": "reading files", "done": done, "total": total}


def _caller(hello: Hello) -> Principal:
    """The principal an `mcp` hello names (see Hello.principal), else the local user."""
    if hello.principal is None:
        return LOCAL_USER
    name, grants = hello.principal.get("name"), hello.principal.get("grants")
    if not isinstance(name, str) or not isinstance(grants, dict):
        raise ValueError("principal needs a name and grants")
    if not all(isinstance(k, str) and type(v) is int for k, v in grants.items()):
        raise ValueError("principal grants map repository ids to levels")
    return Principal(name, dict(grants))


async def _send_line(writer: asyncio.StreamWriter, payload: dict[str, Any]) -> None:
    writer.write(json.dumps(payload, default=str).encode() + b"\n")
    await writer.drain()


async def attach(
    data_dir: Path, hello: Hello, on_progress: OwnerProgress | None = None
) -> OwnerLink | None:
    """Connect to the owner of `data_dir` and say hello; None when nobody listens there.
    Progress lines before the answer (asked for by `hello.progress`) go to `on_progress`."""
    path = socket_path(data_dir)
    try:
        reader, writer = await asyncio.open_unix_connection(path, limit=MAX_LINE)
    except (FileNotFoundError, ConnectionRefusedError):
        return None
    except OSError as exc:  # e.g. a path too long for a Unix socket
        log.debug("cannot reach %s: %s", path, exc)
        return None
    try:
        await _send_line(writer, asdict(hello))
        if doing := THROUGH_THE_OWNER.get(hello.op):
            log.info("%s is in use by another repocontext process; %s through it", data_dir, doing)
        line = await reader.readline()
        while line and "progress" in (update := json.loads(line)):
            if on_progress is not None:
                on_progress(update["progress"])
            line = await reader.readline()
    except ConnectionError:  # an owner dying as we connected: its socket outlived it briefly
        line = b""
    if not line:  # the owner is shutting down (the caller waits for the lock, or the next)
        writer.close()
        return None
    answer = json.loads(line)
    if not answer.get("ok"):
        writer.close()
        raise ServiceUnavailable(f"the repocontext process using {data_dir}: {answer['error']}")
    return OwnerLink(reader, writer, answer)


async def own_or_attach(
    make_app: Callable[[], EmbeddedApp],
    data_dir: Path,
    hello: Hello,
    on_progress: OwnerProgress | None = None,
) -> EmbeddedApp | OwnerLink:
    """Open the app (taking the lock) or attach to the live process holding it. A holder
    that takes no agents (a one-shot `index`, `eval`, `replay`) is waited for."""
    from repocontext.app import DataDirBusy

    said = False
    while True:
        app = make_app()
        try:
            return await app.open()
        except DataDirBusy as busy:
            link = await attach(data_dir, hello, on_progress)
            if link is not None:
                return link
            if len(os.fsencode(socket_path(data_dir))) > UNIX_PATH_MAX:  # no owner listens
                raise DataDirBusy(
                    f"another repocontext process (pid {busy.holder or '?'}) is using "
                    f"{data_dir}, and no agent can attach to it: the path of its socket is "
                    f"longer than a Unix socket allows ({UNIX_PATH_MAX} bytes); pass a shorter "
                    "--data-dir",
                    busy.holder,
                ) from busy
            if not said:
                log.info(
                    "pid %s holds %s and serves no agents (a one-shot command, or one "
                    "starting or exiting); waiting for it to finish",
                    busy.holder or "?",
                    data_dir,
                )
                said = True
            await asyncio.sleep(WAIT_POLL_S)
