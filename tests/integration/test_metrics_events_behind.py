"""/metrics reports how far the views trail the log, read at scrape time (it said 0 always)."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import httpx
import pytest

from query_api.server.http_app import build_http_app
from repocontext.app import EmbeddedApp
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio
GAUGE = re.compile(r"^repocontext_views_events_behind\{[^}]*\} ([0-9.]+)$", re.MULTILINE)


async def events_behind_on_metrics(http: httpx.AsyncClient) -> int:
    response = await http.get("/metrics")
    assert response.status_code == 200
    found = GAUGE.search(response.text)
    assert found is not None, "no repocontext_views_events_behind on /metrics"
    return int(float(found.group(1)))


async def test_metrics_report_the_views_lag_and_its_catching_up(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True):
        pass  # the sample repository is in the log
    for name in ("views.db", "views.db-wal", "views.db-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)  # fresh views: all of it to apply

    async with EmbeddedApp(rig_settings(tmp_path), watch=False) as app:
        asgi = build_http_app(app.mcp_server(), app.service, "127.0.0.1")
        transport = httpx.ASGITransport(app=asgi)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            behind = (await app.runtime.lag()).behind  # nothing applies it: not started
            assert behind > 0
            assert await events_behind_on_metrics(http) == behind

            await app.start(resume=False)
            deadline = time.monotonic() + 60
            while (reported := await events_behind_on_metrics(http)) != 0:
                assert time.monotonic() < deadline, f"still {reported} events behind"
                await asyncio.sleep(0.05)
