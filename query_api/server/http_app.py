"""The HTTP listener: MCP over streamable HTTP at /mcp, health and Prometheus metrics."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from query_api.access.auth import LOCAL_USER, TokenTable
from query_api.core.replica_lag import iso
from query_api.core.service import RepoContextService
from query_api.metrics import prometheus_text
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
from schemas.tools import NoArgs

LOOPBACK = ("127.0.0.1", "localhost", "::1")
READY_BUDGET_S = 0.8  # probes time out at 1-2 s (deploy/k8s): answer well within
log = logging.getLogger(__name__)


def build_http_app(
    mcp_server: Any,
    service: RepoContextService,
    host: str,
    tokens: TokenTable | None = None,
    limits: HttpLimits | None = None,
    *,
    require_token_for_metrics: bool = False,
) -> ASGIApp:
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
    )
    admission = Admission(limits, per_principal=tokens is not None)
    session_alive = live_sessions(manager)

    async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        await manager.handle_request(scope, receive, send)

    async def live(request: Request) -> Response:
        return JSONResponse({"status": "live"})

    def may_see_detail(request: Request) -> bool:
        """Metrics and readiness detail name repositories, tools and lag: with the setting
        on, only a caller holding a valid token sees them (docs/security.md)."""
        if not require_token_for_metrics or tokens is None:
            return True
        return tokens.authenticate(request.headers.get("authorization")) is not None

    last_ready: list[tuple[int, dict[str, Any]]] = []  # the last verdict, for a slow moment

    async def ready_verdict(detail: bool) -> tuple[int, dict[str, Any]]:
        health = await service.health(NoArgs())
        reasons = service.not_ready_reasons()  # a faulted log; a disk not yet compared; lag
        is_ready = health.retrievalReady and not reasons
        status = 200 if is_ready else 503
        if not detail:  # probes still read the status code and `ready`
            return status, {"ready": is_ready}
        fault = service.runtime.health.reason()
        contact = service.runtime.contact
        log_state = "ok" if fault is None else f"faulted: {fault}"
        if service.runtime.log.remote and not contact.reachable:
            log_state = f"unreachable since {iso(contact.unreachable_since)}: {contact.error}"
        body = {
            "ready": is_ready,
            "notReady": reasons,
            "components": {
                "log": log_state,
                "views": "ok",
                "mcp": "serving",
                "retrieval": health.retrievalPhase,
                "vectors": await service.plane.component()
                if service.plane is not None
                else {"embedder": None},
            },
            "status": health.status,
            "freshness": health.freshness.model_dump() if health.freshness else None,
        }
        return status, body

    async def ready(request: Request) -> Response:
        """Answers within READY_BUDGET_S whatever the broker or the vector plane does: past
        it, the previous verdict (marked stale) stands, or not ready when there is none."""
        detail = may_see_detail(request)
        try:
            status, body = await asyncio.wait_for(ready_verdict(detail), READY_BUDGET_S)
        except TimeoutError:
            if not last_ready:
                why = f"readiness could not be computed within {READY_BUDGET_S} s"
                return JSONResponse({"ready": False, "notReady": [why]}, status_code=503)
            status, body = last_ready[0]
            body = {"ready": body["ready"]} if not detail else {**body, "stale": True}
        else:
            if detail:
                last_ready[:] = [(status, body)]
        return JSONResponse(body, status_code=status)

    async def metrics(request: Request) -> Response:
        if not may_see_detail(request):
            return unauthorized
        try:
            await service.log_freshness()  # events behind as of this scrape, not the last call
        except Exception:  # an unreadable log is /health/ready's to report; keep serving metrics
            log.warning("/metrics: the log lag could not be read", exc_info=True)
        data, content_type = prometheus_text()
        return Response(data, media_type=content_type)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app = Starlette(
        routes=[
            Route("/health/live", live),
            Route("/health/ready", ready),
            Route("/metrics", metrics),
        ],
        lifespan=lifespan,
    )

    unauthorized = JSONResponse(
        {"error": "unauthorized", "detail": "send Authorization: Bearer <token>"},
        status_code=401,
        headers={"WWW-Authenticate": 'Bearer realm="repocontext"'},
    )

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        # /mcp and /mcp/ both reach the MCP transport directly (no redirect); the rest,
        # lifespan included, goes to the Starlette app.
        if scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp":
            principal = LOCAL_USER  # loopback without a token file, or behind an auth proxy
            if tokens is not None:
                found = tokens.authenticate(Headers(scope=scope).get("authorization"))
                if found is None:  # fail closed: no tools, no calls
                    await unauthorized(scope, receive, send)
                    return
                principal = found
            scope.setdefault("state", {})["principal"] = principal
            session = session_id_of(scope)
            if session is not None and admission.foreign_session(session, principal.name):
                await refusal(404, "not_found", "session not found")(scope, receive, send)
                return
            if scope.get("method") != "POST":  # the long-lived GET stream is not a request
                await mcp_endpoint(scope, receive, send)
                return
            await _admitted(scope, receive, send, principal.name, session)
            return
        await app(scope, receive, send)

    async def _admitted(
        scope: Scope, receive: Receive, send: Send, who: str, session: str | None
    ) -> None:
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
                refused = admission.may_open(who, session_alive)
                if refused is not None:
                    await refused(scope, receive, send)
                    return
                send, opened = admission.opening_session(who, send)
            await mcp_endpoint(scope, replaying(body, receive), send)
        finally:
            if opened is not None:
                opened()
            admission.leave(who)

    return asgi
