"""`serve` on a data directory another process owns: its HTTP sessions go through the owner.

One writer per data directory stays the rule, so a `serve` started after a `repocontext mcp`
(or another `serve`) already holds the directory serves its HTTP endpoint through that owner's
socket (repocontext/agent_socket.py): each HTTP session is one socket connection, its MCP
messages piped both ways as a stdio agent's are (repocontext/stdio_proxy.py). This process
still authenticates: the bearer token, admission and sessions are its own (McpGate), and the
principal a session authenticated as travels in the connection's hello, so the owner lists
and allows exactly that principal's tools and repositories.

When the owner exits, this process takes over (or attaches to whoever did first), as an
attached stdio agent does: a watcher notices at once, so the data directory is watched again
even with no session open, and each live session resumes on the new owner with its
`initialize` replayed. /health/ready and /metrics are the owner's, asked over the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp.shared.message import ServerMessageMetadata, SessionMessage
from pydantic import ValidationError

from query_api.access.auth import Principal, TokenTable
from query_api.metrics import prometheus_text
from query_api.server.health_http import HealthRoutes
from query_api.server.tool_access import NOBODY
from query_api.settings import Settings
from repocontext.agent_socket import Hello, OwnerLink, attach
from repocontext.stdio_proxy import AgentProxy, take_over

log = logging.getLogger("repocontext")


class OwnerLinks:
    """The way to the data directory's owner for every session of this process: attach to
    it, or, when nobody answers, take over, one session at a time. A watcher holds a
    connection to the owner and takes over as soon as it ends."""

    def __init__(
        self, make_app: Callable[[], Any], data_dir: Path, owned: contextlib.AsyncExitStack
    ) -> None:
        self.make_app = make_app
        self.data_dir = data_dir
        self.owned = owned  # what taking over opens: the app and its agent socket
        self._lock = asyncio.Lock()
        self._watcher: asyncio.Task[None] | None = None

    async def __aenter__(self) -> OwnerLinks:
        self._watcher = asyncio.ensure_future(self._watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watcher

    async def link(self, hello: Hello) -> OwnerLink:
        async with self._lock:
            found = await attach(self.data_dir, hello)
            if found is not None:
                return found
            return await take_over(self.make_app, self.data_dir, hello, self.owned, "serve")

    async def _watch(self) -> None:
        while True:
            try:
                link = await self.link(Hello("watch"))
            except Exception as exc:  # said in one line; each session tries again itself
                log.debug("taking over failed", exc_info=True)
                log.error("serve: could not take %s over (%s)", self.data_dir, exc)
                return
            pid = link.answer.get("pid")
            await link.reader.read()  # until the owner exits (or this process does)
            link.writer.close()
            log.warning(
                "serve: the repocontext process owning %s (pid %s) exited; taking over",
                self.data_dir,
                pid,
            )


def principal_of(message: SessionMessage) -> Principal:
    """Who sent an HTTP session's message: the principal McpGate put in the request's state
    (query_api/server/tool_access.py reads it the same way)."""
    metadata = message.metadata
    request = metadata.request_context if isinstance(metadata, ServerMessageMetadata) else None
    state = getattr(request, "scope", {}).get("state", {}) if request is not None else {}
    found = state.get("principal") if isinstance(state, dict) else None
    return found if isinstance(found, Principal) else NOBODY


def _line(message: SessionMessage) -> bytes:
    return message.message.model_dump_json(by_alias=True, exclude_none=True).encode() + b"\n"


class SessionProxy(AgentProxy):
    """One HTTP session's messages to and from the owner."""

    def __init__(self, link: OwnerLink, links: OwnerLinks, hello: Hello, write: Any) -> None:
        super().__init__(link, links.data_dir, lambda: links.link(hello))
        self.write = write

    async def _to_agent(self, line: bytes) -> None:
        try:
            message = types.JSONRPCMessage.model_validate_json(line)
        except ValidationError:
            log.debug("serve: the owner sent a line that is no JSON-RPC message: %.200r", line)
            return
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await self.write.send(SessionMessage(message))  # the session is gone: nobody reads

    def _owner_exited(self, pid: object) -> None:
        log.debug("serve: a session's owner (pid %s) exited; resuming it on the next", pid)

    def _could_not_take_over(self, pid: object, why: str) -> None:
        log.error(
            "serve: the repocontext process owning %s (pid %s) exited and no process took "
            "over (%s); this HTTP session ends",
            self.data_dir,
            pid,
            why,
        )


class ForwardingServer:
    """What the SDK's HTTP session manager runs for each session in place of an MCP server
    (it calls `create_initialization_options` and `run`): the session, through the owner."""

    def __init__(self, links: OwnerLinks, hello: Hello) -> None:
        self.links = links
        self.hello = hello  # profile and read-only of this process; no path (registered once)

    def create_initialization_options(self) -> None:
        return None  # the owner's server announces itself

    async def run(self, read_stream: Any, write_stream: Any, *args: Any, **kwargs: Any) -> None:
        first = await self._first_message(read_stream)
        if first is None:
            return
        principal = principal_of(first)
        hello = dataclasses.replace(
            self.hello, principal={"name": principal.name, "grants": dict(principal.grants)}
        )
        try:
            link = await self.links.link(hello)
        except Exception as exc:  # one line, not the SDK's "session crashed" traceback
            log.debug("no owner for a session", exc_info=True)
            log.error("serve: this HTTP session has no owner to answer it (%s)", exc)
            return
        proxy = SessionProxy(link, self.links, hello, write_stream)
        await proxy.lines.put(_line(first))
        reading = asyncio.ensure_future(self._read(read_stream, proxy))
        try:
            await proxy.serve()
        finally:
            reading.cancel()

    async def _first_message(self, read_stream: Any) -> SessionMessage | None:
        async for item in read_stream:
            if isinstance(item, SessionMessage):
                return item
        return None

    async def _read(self, read_stream: Any, proxy: SessionProxy) -> None:
        with contextlib.suppress(anyio.ClosedResourceError, anyio.EndOfStream):
            async for item in read_stream:
                if isinstance(item, SessionMessage):  # an exception: the transport answered
                    await proxy.lines.put(_line(item))
        proxy.agent_left = True
        await proxy.lines.put(None)


class OwnerHealth(HealthRoutes):
    """/health/ready and /metrics of the process that owns the data directory."""

    def __init__(
        self, data_dir: Path, tokens: TokenTable | None, require_token_for_metrics: bool
    ) -> None:
        super().__init__(tokens, require_token_for_metrics)
        self.data_dir = data_dir

    async def _ask(self, op: str) -> dict[str, Any] | None:
        link = await attach(self.data_dir, Hello(op))
        if link is None:
            return None
        link.writer.close()
        return link.answer

    async def verdict(self, detail: bool) -> tuple[int, dict[str, Any]]:
        answer = await self._ask("ready")
        if answer is None:
            why = f"no process owns {self.data_dir} now (one exited; this one takes over)"
            status, body = 503, {"ready": False, "notReady": [why]}
        else:
            status, body = int(answer["status"]), {**answer["body"], "owner": answer.get("pid")}
        return status, body if detail else {"ready": body["ready"]}

    async def metrics_text(self) -> tuple[bytes, str]:
        answer = await self._ask("metrics")
        if answer is None:  # between owners: this process's own, rather than nothing
            return prometheus_text()
        return str(answer["text"]).encode(), str(answer["contentType"])


async def serve_through_owner(
    link: OwnerLink,
    hello: Hello,
    settings: Settings,
    tokens: TokenTable | None,
    listener: socket.socket,
) -> int:
    """`serve` while another process owns the data directory (`link`, its answer to our
    `hello`, which registered PATH): this process authenticates and admits, the owner
    answers; when the owner exits, this one takes over."""
    from query_api.server.admission import HttpLimits
    from query_api.server.http_app import build_http_app
    from query_api.server.http_serve import serve_http
    from repocontext.app import EmbeddedApp

    log.info(
        "serve: %s is in use by pid %s; serving through it",
        settings.data_dir,
        link.answer.get("pid"),
    )
    sessions = dataclasses.replace(hello, path=None, repoId=None)  # PATH is registered
    async with (
        contextlib.AsyncExitStack() as owned,  # what taking over opens, closed last
        OwnerLinks(lambda: EmbeddedApp(settings), settings.data_dir, owned) as links,
    ):
        asgi = build_http_app(
            ForwardingServer(links, sessions),
            None,
            settings.host,
            tokens,
            HttpLimits.from_settings(settings),
            require_token_for_metrics=settings.require_token_for_metrics,
            health=OwnerHealth(settings.data_dir, tokens, settings.require_token_for_metrics),
        )
        await serve_http(asgi, listener, "MCP")
    return 0
