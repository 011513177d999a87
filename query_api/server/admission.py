"""Admission on /mcp: what one caller may hold, so one token cannot take the server.

Every POST takes a slot in the global in-flight count AND in its principal's count before
its body is read, and the body must arrive whole within `body_timeout_s`: a caller that
opens many connections and drips bytes (slowloris) holds at most its own slots, for at most
the body timeout, and every other principal keeps being served. Open MCP sessions are
counted per principal too (an `initialize` past the cap gets 429), and a request naming a
session that another principal opened is answered as if the session did not exist.

Without a token file every caller is the same local user, so only the global limit applies.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from query_api.settings import Settings

SESSION_HEADER = b"mcp-session-id"


@dataclass(frozen=True)
class HttpLimits:
    max_inflight: int = 256
    max_inflight_per_principal: int = 32
    body_timeout_s: float = 10.0
    max_body_bytes: int = 4 * 1024 * 1024
    max_sessions_per_principal: int = 64
    max_sessions: int = 4096
    session_idle_timeout_s: float = 600.0

    @classmethod
    def from_settings(cls, settings: Settings) -> HttpLimits:
        return cls(
            max_inflight=settings.max_inflight_requests,
            max_inflight_per_principal=settings.max_inflight_per_principal,
            body_timeout_s=settings.request_body_timeout_s,
            max_body_bytes=settings.max_request_body_bytes,
            max_sessions_per_principal=settings.max_sessions_per_principal,
            max_sessions=settings.max_sessions,
            session_idle_timeout_s=settings.session_idle_timeout_s,
        )


def refusal(status: int, error: str, detail: str, retry_after: int | None = None) -> JSONResponse:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return JSONResponse({"error": error, "detail": detail}, status_code=status, headers=headers)


class BodyRefused(Exception):
    """The request body did not arrive in time or is too large; `response` says so."""

    def __init__(self, response: JSONResponse) -> None:
        super().__init__(response.body)
        self.response = response


async def read_body(receive: Receive, timeout_s: float, max_bytes: int) -> bytes:
    """The whole request body, read within `timeout_s` (total, not per chunk)."""
    chunks: list[bytes] = []
    size = 0
    with anyio.move_on_after(timeout_s) as scope:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise BodyRefused(refusal(400, "disconnected", "the client went away"))
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > max_bytes:
                raise BodyRefused(
                    refusal(413, "too_large", f"request body is over {max_bytes} bytes")
                )
            chunks.append(chunk)
            if not message.get("more_body", False):
                body = b"".join(chunks)
                if too_deep(body):
                    raise BodyRefused(
                        refusal(
                            400,
                            "too_deep",
                            f"the JSON body nests arrays or objects deeper than {MAX_JSON_DEPTH}",
                        )
                    )
                return body
    assert scope.cancel_called
    raise BodyRefused(
        refusal(408, "body_timeout", f"the request body did not arrive within {timeout_s:g} s")
    )


MAX_JSON_DEPTH = 128  # arrays and objects inside each other; a tool call needs a handful
_JSON_NESTING = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """The body nests arrays and objects deeper than `limit`: the SDK's parser then fails on
    Python's recursion limit with an HTTP 500 and a traceback (a QA pass: 200,000 levels in
    a 400 KB body). Strings are skipped; a body with fewer brackets than the limit is not
    scanned at all."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for match in _JSON_NESTING.finditer(body):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


def replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that yields the already-read body once, then the real channel (disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class Admission:
    """In-flight slots (global and per principal) and session ownership."""

    def __init__(self, limits: HttpLimits, per_principal: bool) -> None:
        self.limits = limits
        self.per_principal = per_principal
        self.inflight = 0
        self.by_principal: Counter[str] = Counter()
        self.session_owner: dict[str, str] = {}
        self.opening: Counter[str] = Counter()  # initialize requests being answered

    def enter(self, principal: str) -> JSONResponse | None:
        """Take a slot for `principal`, or the refusal to send instead."""
        if self.inflight >= self.limits.max_inflight:  # past saturation: shed, never queue
            return refusal(503, "busy", "too many requests in flight; retry shortly", 1)
        cap = self.limits.max_inflight_per_principal
        if self.per_principal and self.by_principal[principal] >= cap:
            return refusal(
                429,
                "too_many_requests",
                f"this token already has {cap} requests in flight; wait for one to finish",
                1,
            )
        self.inflight += 1
        self.by_principal[principal] += 1
        return None

    def leave(self, principal: str) -> None:
        self.inflight -= 1
        self.by_principal[principal] -= 1
        if self.by_principal[principal] <= 0:
            del self.by_principal[principal]

    def sessions_of(self, principal: str, live: Callable[[str], bool]) -> int:
        """Open sessions of `principal`; ended ones (closed, reaped) are forgotten here."""
        for session_id in [s for s in self.session_owner if not live(s)]:
            del self.session_owner[session_id]
        return sum(1 for owner in self.session_owner.values() if owner == principal)

    def may_open(self, principal: str, live: Callable[[str], bool]) -> JSONResponse | None:
        """None when `principal` may open one more session. Without a token file every
        caller is the one local user, so the per-token cap would hold a whole team of agents
        to one token's share: only the transport's global cap (MAX_SESSIONS) applies then."""
        if not self.per_principal:
            return None
        cap = self.limits.max_sessions_per_principal
        if self.sessions_of(principal, live) + self.opening[principal] >= cap:
            return refusal(
                429,
                "too_many_sessions",
                f"this token already has {cap} open MCP sessions; close one (DELETE /mcp) "
                "or reuse it; idle sessions close after "
                f"{self.limits.session_idle_timeout_s:g} s",
                5,
            )
        return None

    def foreign_session(self, session_id: str, principal: str) -> bool:
        owner = self.session_owner.get(session_id)
        return owner is not None and owner != principal

    def opening_session(self, principal: str, send: Send) -> tuple[Send, Callable[[], None]]:
        """Count an opening request until its response announces the session (then record
        who owns it), and the `done` to call when the request ends whichever way."""
        self.opening[principal] += 1
        pending = True

        def done() -> None:
            nonlocal pending
            if pending:
                pending = False
                self.opening[principal] -= 1

        async def send_and_record(message: Message) -> None:
            if message["type"] == "http.response.start":
                session_id = header(message.get("headers", []), SESSION_HEADER)
                if session_id and message.get("status", 500) < 400:
                    self.session_owner[session_id] = principal
                done()
            await send(message)

        return send_and_record, done


def header(headers: Any, name: bytes) -> str | None:
    for key, value in headers:
        if bytes(key).lower() == name:
            return bytes(value).decode("latin-1")
    return None


def session_id_of(scope: Scope) -> str | None:
    return header(scope.get("headers", []), SESSION_HEADER)


def live_sessions(manager: Any) -> Callable[[str], bool]:
    """Whether the SDK's session manager still holds a session (it forgets closed and
    idle-reaped ones); the SDK has no public accessor for this."""
    instances: Mapping[str, Any] = manager._server_instances
    return instances.__contains__
