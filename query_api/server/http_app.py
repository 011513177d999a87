"""The HTTP listener: MCP over streamable HTTP at /mcp, health and Prometheus metrics.

A tool call is answered with one `application/json` body, not an SSE stream per call: no
tool of ours sends a notification or a request while it runs, so the stream would carry the
same single message as the body does (byte for byte) at the price of a stream, a task group
and an event encoder per call on the server, and an event parser on the client
(docs/performance.md has the cost). The long-lived GET stream for server-initiated messages
is unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from query_api.access.auth import LOCAL_USER, TokenTable
from query_api.core.service import RepoContextService
from query_api.server.admission import (
    Admission,
    BodyRefused,
    HttpLimits,
    live_sessions,
    read_body,
    refusal,
    replaying,
    session_id_of,
)
from query_api.server.disconnects import answer_or_cancel, request_ids
from query_api.server.health_http import UNAUTHORIZED, HealthRoutes, ServiceHealth

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def build_http_app(
    mcp_server: Any,
    service: RepoContextService | None,
    host: str,
    tokens: TokenTable | None = None,
    limits: HttpLimits | None = None,
    *,
    require_token_for_metrics: bool = False,
    json_response: bool = True,
    health: HealthRoutes | None = None,
) -> ASGIApp:
    """The listener's app; `json_response=False` answers each call as an SSE stream (the
    SDK's default), kept so a test can compare the two answers byte for byte. `mcp_server`
    is the SDK's server, or anything that runs a session as it does (a `serve` attached to
    the data directory's owner forwards each session there); `health` replaces the routes
    over `service` (required without one)."""
    limits = limits or HttpLimits()
    security = None
    if host in LOOPBACK:  # DNS-rebinding protection: only loopback Host/Origin headers
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    manager = StreamableHTTPSessionManager(
        app=mcp_server,
        security_settings=security,
        session_idle_timeout=limits.session_idle_timeout_s,
        max_request_body_size=limits.max_body_bytes,
        max_sessions=limits.max_sessions,
        json_response=json_response,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    if health is None:
        if service is None:
            raise ValueError("build_http_app needs a service or health routes")
        health = ServiceHealth(service, tokens, require_token_for_metrics)
    rest = Starlette(routes=health.routes(), lifespan=lifespan)
    return McpGate(manager, rest, tokens, limits)


class McpGate:
    """The listener's ASGI app: /mcp and /mcp/ reach the MCP transport directly (no redirect),
    behind the bearer token and admission; the rest, lifespan included, goes to `rest`."""

    def __init__(
        self,
        manager: StreamableHTTPSessionManager,
        rest: ASGIApp,
        tokens: TokenTable | None,
        limits: HttpLimits,
    ) -> None:
        self.manager = manager
        self.rest = rest
        self.tokens = tokens
        self.limits = limits
        self.admission = Admission(limits, per_principal=tokens is not None)
        self.session_alive = live_sessions(manager)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != "/mcp":
            await self.rest(scope, receive, send)
            return
        principal = LOCAL_USER  # loopback without a token file, or behind an auth proxy
        if self.tokens is not None:
            found = self.tokens.authenticate(Headers(scope=scope).get("authorization"))
            if found is None:  # fail closed: no tools, no calls
                await UNAUTHORIZED(scope, receive, send)
                return
            principal = found
        scope.setdefault("state", {})["principal"] = principal
        session = session_id_of(scope)
        if session is not None and self.admission.foreign_session(session, principal.name):
            await refusal(404, "not_found", "session not found")(scope, receive, send)
            return
        if scope.get("method") != "POST":  # the long-lived GET stream is not a request
            await self.manager.handle_request(scope, receive, send)
            return
        await self._admitted(scope, receive, send, principal.name, session)

    async def _admitted(
        self, scope: Scope, receive: Receive, send: Send, who: str, session: str | None
    ) -> None:
        admission, limits = self.admission, self.limits
        refused = admission.enter(who)
        if refused is not None:
            await refused(scope, receive, send)
            return
        opened: Callable[[], None] | None = None
        try:
            try:  # the body is read while the caller's slot is held, and only so long
                body = await read_body(receive, limits.body_timeout_s, limits.max_body_bytes)
            except BodyRefused as exc:
                await exc.response(scope, receive, send)
                return
            if session is None:
                refused = admission.may_open(who, self.session_alive)
                if refused is not None:
                    await refused(scope, receive, send)
                    return
                send, opened = admission.opening_session(who, send)
            ids = request_ids(body) if session is not None else []
            if ids:  # a call: cancelled if its client goes away before the answer
                handle = self.manager.handle_request
                await answer_or_cancel(handle, scope, body, receive, send, ids)
            else:
                await self.manager.handle_request(scope, replaying(body, receive), send)
        finally:
            if opened is not None:
                opened()
            admission.leave(who)
