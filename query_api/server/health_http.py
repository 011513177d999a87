"""The query listener's health and metrics: /health/live, /health/ready and /metrics.

Readiness answers within READY_BUDGET_S whatever the broker or the vector plane does (probes
time out at 1-2 s in deploy/k8s). Its detail, like the metrics, names repositories, tools and
lag: with `require_token_for_metrics`, only a caller holding a valid token sees them
(docs/security.md); probes still read the status code and `ready`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from query_api.access.auth import TokenTable
from query_api.core.service import RepoContextService
from query_api.metrics import prometheus_text
from schemas.timestamps import iso_utc
from schemas.tools import NoArgs

READY_BUDGET_S = 0.8
log = logging.getLogger(__name__)

UNAUTHORIZED = JSONResponse(
    {"error": "unauthorized", "detail": "send Authorization: Bearer <token>"},
    status_code=401,
    headers={"WWW-Authenticate": 'Bearer realm="repocontext"'},
)


class HealthRoutes:
    """The three routes; keeps the last readiness verdict for a slow moment. Where the verdict
    and the metrics come from is a subclass's: this process's service (ServiceHealth), or
    the process that owns the data directory, for a `serve` attached to it."""

    def __init__(self, tokens: TokenTable | None, require_token_for_metrics: bool) -> None:
        self.tokens = tokens
        self.require_token = require_token_for_metrics
        self._last_ready: tuple[int, dict[str, Any]] | None = None

    def routes(self) -> list[Route]:
        return [
            Route("/health/live", self.live),
            Route("/health/ready", self.ready),
            Route("/metrics", self.metrics),
        ]

    def may_see_detail(self, request: Request) -> bool:
        if not self.require_token or self.tokens is None:
            return True
        return self.tokens.authenticate(request.headers.get("authorization")) is not None

    async def live(self, request: Request) -> Response:
        return JSONResponse({"status": "live"})

    async def ready(self, request: Request) -> Response:
        """Past READY_BUDGET_S the previous verdict (marked stale) stands, or not ready when
        there is none."""
        detail = self.may_see_detail(request)
        try:
            status, body = await asyncio.wait_for(self.verdict(detail), READY_BUDGET_S)
        except TimeoutError:
            if self._last_ready is None:
                why = f"readiness could not be computed within {READY_BUDGET_S} s"
                return JSONResponse({"ready": False, "notReady": [why]}, status_code=503)
            status, body = self._last_ready
            body = {"ready": body["ready"]} if not detail else {**body, "stale": True}
        else:
            if detail:
                self._last_ready = (status, body)
        return JSONResponse(body, status_code=status)

    async def verdict(self, detail: bool) -> tuple[int, dict[str, Any]]:
        raise NotImplementedError

    async def metrics_text(self) -> tuple[bytes, str]:
        """The Prometheus exposition and its content type."""
        raise NotImplementedError

    async def metrics(self, request: Request) -> Response:
        if not self.may_see_detail(request):
            return UNAUTHORIZED
        data, content_type = await self.metrics_text()
        return Response(data, media_type=content_type)


def status_line(status: str, is_ready: bool, reasons: list[str]) -> str:
    """The body's status agrees with its verdict: retrieval's `ready: ...` (its notes kept)
    leads with `not ready:` and the reasons when something else keeps the server out of
    traffic (a disk not compared yet, a replica beyond its lag bound)."""
    if is_ready or not status.startswith("ready: "):
        return status
    return "not ready: " + "; ".join([*reasons, status.removeprefix("ready: ")])


class ServiceHealth(HealthRoutes):
    """The routes over this process's own service."""

    def __init__(
        self,
        service: RepoContextService,
        tokens: TokenTable | None,
        require_token_for_metrics: bool,
    ) -> None:
        super().__init__(tokens, require_token_for_metrics)
        self.service = service

    async def verdict(self, detail: bool) -> tuple[int, dict[str, Any]]:
        service = self.service
        health = await service.health(NoArgs())
        reasons = service.not_ready_reasons()  # a faulted log; a disk not yet compared; lag
        is_ready = health.retrievalReady and not reasons
        if not is_ready and not reasons:  # retrieval's own verdict: a 503 always says why
            reasons = [health.status]
        status = 200 if is_ready else 503
        if not detail:
            return status, {"ready": is_ready}
        body = {
            "ready": is_ready,
            "notReady": reasons,
            "components": {
                "log": self._log_state(),
                "views": "ok",
                "mcp": "serving",
                "retrieval": health.retrievalPhase,
                "vectors": await service.plane.component()
                if service.plane is not None
                else {"embedder": None},
            },
            "status": status_line(health.status, is_ready, reasons),
            "freshness": health.freshness.model_dump() if health.freshness else None,
        }
        return status, body

    def _log_state(self) -> str:
        runtime = self.service.runtime
        fault = runtime.health.reason()
        if runtime.log.remote and not runtime.contact.reachable:
            contact = runtime.contact
            return f"unreachable since {iso_utc(contact.unreachable_since)}: {contact.error}"
        return "ok" if fault is None else f"faulted: {fault}"

    async def metrics_text(self) -> tuple[bytes, str]:
        try:
            await self.service.log_freshness()  # events behind as of this scrape
        except Exception:  # an unreadable log is /health/ready's to report; keep serving metrics
            log.warning("/metrics: the log lag could not be read", exc_info=True)
        data, content_type = prometheus_text()
        return data, content_type
