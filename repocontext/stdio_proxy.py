"""An attached `mcp` process: its stdio agent's messages go to the data directory's owner
(repocontext/agent_socket.py), and when the owner exits this process takes over.

Taking over means opening the data directory itself (the lock is free once the owner is gone)
and serving its own agent, and any other attached one, as the new owner; or, when another
attached process got the lock first, serving through that one. Either way the agent keeps its
session: MCP needs `initialize` before anything else, so the proxy replays the agent's own
initialize request to the new server (under an id of its own, the answer not forwarded) and
its `initialized` notification. A request the old owner took but never answered gets a
JSON-RPC error saying so (it may or may not have run: a write is not repeated behind the
agent's back); one the old owner's socket refused whole never ran, and goes to the new owner.
Messages are MCP's stdio framing: one JSON-RPC message a line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from query_api.errors import ServiceUnavailable, UsageError
from repocontext.agent_socket import (
    AgentListener,
    Hello,
    OwnerLink,
    attach,
    own_or_attach,
)
from repocontext.stdio_lines import stdin_reader

log = logging.getLogger("repocontext")

REPLAY_ID = "repocontext-takeover"  # the replayed initialize's id: its answer stays here
OWNER_EXITED = -32000  # JSON-RPC's implementation-defined server error range


def _message(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class SessionNotes:
    """What a new owner needs of the agent's session: its initialize request and whether it
    finished the handshake, and which of its requests wait for an answer."""

    def __init__(self) -> None:
        self.initialize: dict[str, Any] | None = None
        self.initialize_answered = False
        self.initialized: bytes | None = None  # the agent's `notifications/initialized` line
        self.waiting: dict[Any, str] = {}  # request id -> method, sent and not yet answered
        # a line the old owner's socket refused whole: it never ran, so the next owner gets it
        self.unsent: bytes | None = None

    def from_agent(self, line: bytes) -> None:
        message = _message(line)
        if message is None or "method" not in message:
            return  # a response to the server's own request, or nothing we can read
        if message["method"] == "initialize":
            self.initialize, self.initialize_answered = message, False
        elif message["method"] == "notifications/initialized":
            self.initialized = line
        if "id" in message:
            self.waiting[message["id"]] = message["method"]

    def from_owner(self, line: bytes) -> None:
        message = _message(line)
        if message is None or "method" in message or "id" not in message:
            return  # a notification or a request of the server's
        self.waiting.pop(message["id"], None)
        if self.initialize is not None and message["id"] == self.initialize.get("id"):
            self.initialize_answered = True


class AgentProxy:
    """Pipes one agent's lines to the owner and the owner's lines back; `take_over` is called
    when the owner goes away before the agent does and returns the link to the next owner.
    A subclass feeds the agent's lines into `lines` (then None) and delivers `_to_agent`."""

    def __init__(
        self, link: OwnerLink, data_dir: Path, take_over: Callable[[], Awaitable[OwnerLink]]
    ) -> None:
        self.link = link
        self.data_dir = data_dir
        self.take_over = take_over
        self.notes = SessionNotes()
        self.lines: asyncio.Queue[bytes | None] = asyncio.Queue()  # None: the agent left
        self.agent_done = False  # the agent's end of input reached the owner
        self.agent_left = False  # its input ended (a takeover then serves nobody)

    async def serve(self) -> bool:
        """Pipe until the agent leaves (True), taking over as often as owners exit; False
        when taking over failed (said in one line)."""
        while not await self._pipe() and not self.agent_left:
            gone = self.link.answer.get("pid", "?")
            self._owner_exited(gone)
            try:
                self.link = await self.take_over()
                await self._resume()
            except Exception as exc:  # said in one line; the details with -v
                log.debug("taking over failed", exc_info=True)
                self._could_not_take_over(
                    gone, str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
                )
                return False
        return True

    def _owner_exited(self, pid: object) -> None:
        log.warning(
            "mcp: the repocontext process serving %s (pid %s) exited; taking over",
            self.data_dir,
            pid,
        )

    def _could_not_take_over(self, pid: object, why: str) -> None:
        log.error(
            "mcp: the repocontext process serving %s (pid %s) exited and this agent could "
            "not take over (%s); restart this agent",
            self.data_dir,
            pid,
            why,
        )

    async def _to_agent(self, line: bytes) -> None:
        raise NotImplementedError

    async def _pipe(self) -> bool:
        """Pipe until the link closes: True when the agent left first, False when the owner
        went away under it."""
        link = self.link
        sending = asyncio.ensure_future(self._upstream(link))
        try:
            while line := await link.reader.readline():
                self.notes.from_owner(line)
                await self._to_agent(line)
        except (ConnectionError, ValueError):  # reset, or a line past MAX_LINE
            pass
        finally:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await sending
            link.writer.close()
        return self.agent_done

    async def _upstream(self, link: OwnerLink) -> None:
        while (line := await self.lines.get()) is not None:
            self.notes.from_agent(line)  # before writing: a line lost with the owner is known
            if _refused(link.writer, line):
                self.notes.unsent = line
                return  # the lines after it stay queued for the next owner
            await link.writer.drain()
        self.agent_done = True
        with contextlib.suppress(OSError):
            link.writer.write_eof()

    async def _resume(self) -> None:
        """Bring the new owner to where the agent's session was (see the module doc)."""
        notes, writer = self.notes, self.link.writer
        if notes.initialize is not None and notes.initialize_answered:
            writer.write(_line({**notes.initialize, "id": REPLAY_ID}))
            await writer.drain()
            while True:  # what the new server says before its answer is for nobody
                line = await self.link.reader.readline()
                if not line:
                    raise ServiceUnavailable("the new owner closed the connection at once")
                answer = _message(line)
                if answer is not None and answer.get("id") == REPLAY_ID:
                    break
            if notes.initialized is not None:
                writer.write(notes.initialized)
                await writer.drain()
        elif notes.initialize is not None:  # the handshake was under way: ask again
            notes.waiting.pop(notes.initialize.get("id"), None)
            writer.write(_line(notes.initialize))
            await writer.drain()
        unsent, notes.unsent = notes.unsent, None
        if unsent is not None and not _is_handshake(unsent):  # the handshake is replayed above
            notes.waiting.pop((_message(unsent) or {}).get("id"), None)
            writer.write(unsent)
            await writer.drain()
        for request_id, method in notes.waiting.items():
            error = {
                "code": OWNER_EXITED,
                "message": f"the repocontext process serving this {method} request exited "
                "before answering; it may or may not have run, retry it",
            }
            await self._to_agent(_line({"jsonrpc": "2.0", "id": request_id, "error": error}))
        notes.waiting.clear()


def _refused(writer: asyncio.StreamWriter, line: bytes) -> bool:
    """Write `line`; True when the owner's socket refused it whole, so it cannot have run:
    nothing was buffered before it and the send failed at once (the owner had gone), or the
    connection had already failed. Said before any await, so a cancel cannot lose it; a line
    queued behind unsent bytes counts as sent (a lost request that may have run is answered
    with an error, as before)."""
    transport = writer.transport
    failed_before = transport.is_closing()
    clean = transport.get_write_buffer_size() == 0
    writer.write(line)
    return failed_before or (clean and transport.is_closing())


def _is_handshake(line: bytes) -> bool:
    method = (_message(line) or {}).get("method")
    return method in ("initialize", "notifications/initialized")


class StdioProxy(AgentProxy):
    """The agent is this process's stdin and stdout."""

    def __init__(
        self, link: OwnerLink, data_dir: Path, take_over: Callable[[], Awaitable[OwnerLink]]
    ) -> None:
        super().__init__(link, data_dir, take_over)
        self.stdout = sys.stdout.buffer

    async def run(self) -> int:
        # stdin through the event loop, not a thread: a thread blocked reading it would keep
        # the process alive after the agent is gone
        stdin = await stdin_reader()
        reading = asyncio.ensure_future(self._read_agent(stdin))
        try:
            return 0 if await self.serve() else 1
        finally:
            reading.cancel()

    async def _read_agent(self, stdin: asyncio.StreamReader) -> None:
        while line := await stdin.readline():
            await self.lines.put(line)
        self.agent_left = True
        await self.lines.put(None)

    async def _to_agent(self, line: bytes) -> None:
        self.stdout.write(line)
        self.stdout.flush()


async def take_over(
    make_app: Callable[[], Any],
    data_dir: Path,
    hello: Hello,
    owned: contextlib.AsyncExitStack,
    who: str = "mcp",
) -> OwnerLink:
    """Become the owner of `data_dir` (its app and agent socket entered into `owned`) and
    attach to ourselves, or attach to whoever became the owner first."""
    opened = await own_or_attach(make_app, data_dir, hello)
    if isinstance(opened, OwnerLink):
        log.info(
            "%s: %s is served by pid %s now; serving through it",
            who,
            data_dir,
            opened.answer.get("pid"),
        )
        return opened
    app = opened
    owned.push_async_callback(app.close)
    await app.start(vectors=False)  # as `mcp` starts: the keyword index first
    await owned.enter_async_context(AgentListener(app))
    link = await attach(data_dir, hello)  # through our own socket: one path for every agent
    if link is None:
        raise ServiceUnavailable(f"this process opened {data_dir} but cannot reach its socket")
    app.start_vectors()  # once the keyword index of the registered repositories settles
    await _start_readers(app, owned)
    log.info("%s: this process (pid %s) owns %s now", who, link.answer.get("pid"), data_dir)
    return link


async def _start_readers(app: Any, owned: contextlib.AsyncExitStack) -> None:
    """The search readers this process's settings ask for, as an owner started as one has
    them; with an embedder it serves without them (the owner it replaces may have had none)."""
    from query_api.server.search_readers import start_search_readers

    settings = app.settings
    try:
        readers = await start_search_readers(
            app.service, settings.search_readers, settings.embedder, app.keyword_index_settled
        )
    except UsageError as exc:
        log.warning("no search readers: %s", exc)
        return
    if readers is not None:
        owned.push_async_callback(readers.close)  # before the app closes
