"""The HTTP listener: MCP over streamable HTTP at /mcp, health and Prometheus metrics."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from query_api.auth import LOCAL_USER, TokenTable
from query_api.metrics import prometheus_text
from query_api.service import RepoContextService
from schemas.tools import NoArgs

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def build_http_app(
    mcp_server: Any,
    service: RepoContextService,
    host: str,
    tokens: TokenTable | None = None,
    max_inflight: int = 256,
) -> ASGIApp:
    security = None
    if host in LOOPBACK:  # DNS-rebinding protection: only loopback Host/Origin headers
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    manager = StreamableHTTPSessionManager(app=mcp_server, security_settings=security)

    async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        await manager.handle_request(scope, receive, send)

    async def live(request: Request) -> Response:
        return JSONResponse({"status": "live"})

    async def ready(request: Request) -> Response:
        health = await service.health(NoArgs())
        body = {
            "ready": health.retrievalReady,
            "components": {
                "log": "ok",
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
        return JSONResponse(body, status_code=200 if health.retrievalReady else 503)

    async def metrics(request: Request) -> Response:
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

    busy = JSONResponse(
        {"error": "busy", "detail": "too many requests in flight; retry shortly"},
        status_code=503,
        headers={"Retry-After": "1"},
    )
    inflight = 0

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        # /mcp and /mcp/ both reach the MCP transport directly (no redirect); the rest,
        # lifespan included, goes to the Starlette app.
        nonlocal inflight
        if scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp":
            if scope.get("method") != "POST":  # the long-lived GET stream is not a request
                await _mcp(scope, receive, send)
                return
            if inflight >= max_inflight:
                await busy(scope, receive, send)  # past saturation: shed, never queue unbounded
                return
            inflight += 1
            try:
                await _mcp(scope, receive, send)
            finally:
                inflight -= 1
            return
        await app(scope, receive, send)

    async def _mcp(scope: Scope, receive: Receive, send: Send) -> None:
        principal = LOCAL_USER  # loopback without a token file, or behind an auth proxy
        if tokens is not None:
            found = tokens.authenticate(Headers(scope=scope).get("authorization"))
            if found is None:  # fail closed: no tools, no calls
                await unauthorized(scope, receive, send)
                return
            principal = found
        scope.setdefault("state", {})["principal"] = principal
        await mcp_endpoint(scope, receive, send)

    return asgi
