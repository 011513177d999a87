"""/health/live, /health/ready and /metrics for the processes that serve no MCP: workers, the
vector worker and git sources (`--metrics-port`). Query replicas serve the same three paths
on their MCP listener (http_app.py).

Every answer comes from state the process keeps in memory (counters, the last background
measurement of its consumer groups), so a probe answers at once even while the broker is
away; readiness names what is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from query_api.metrics import prometheus_text

log = logging.getLogger("repocontext")


def ops_app(what: str, not_ready: Callable[[], list[str]]) -> Starlette:
    """The three paths; `not_ready()` lists why the process does no useful work (empty: ready)."""

    async def live(request: Request) -> Response:
        return JSONResponse({"status": "live", "process": what})

    async def ready(request: Request) -> Response:
        reasons = not_ready()
        body = {"ready": not reasons, "process": what, "notReady": reasons}
        return JSONResponse(body, status_code=503 if reasons else 200)

    async def metrics(request: Request) -> Response:
        data, content_type = prometheus_text()
        return Response(data, media_type=content_type)

    return Starlette(
        routes=[
            Route("/health/live", live),
            Route("/health/ready", ready),
            Route("/metrics", metrics),
        ]
    )


class OpsServer:
    """uvicorn serving `ops_app` on a bound listener as a task of the running loop; signals
    stay the process's own (the worker's SIGTERM handler stops its steps)."""

    def __init__(self, app: Starlette, listener: socket.socket) -> None:
        import uvicorn

        class Quiet(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield

        self._server: Any = Quiet(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self._listener = listener
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        host, port = self._listener.getsockname()[:2]
        log.info("health and metrics at http://%s:%d/health/ready and /metrics", host, port)
        self._task = asyncio.create_task(self._server.serve(sockets=[self._listener]))

    async def stop(self) -> None:
        self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 5.0)
