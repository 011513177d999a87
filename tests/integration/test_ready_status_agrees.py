"""A 503 from /health/ready never says `"status": "ready: ..."`.

The body's `status` is the retrieval verdict with notes appended; `ready` also weighs the
reasons that keep a server out of traffic (a disk not compared yet, a query replica beyond
its lag bound: `"ready": false`, `"notReady": ["the views trail the event log by 7233
events ..."]`, `"status": "ready: keyword search (BM25); ..."` on a replica). An operator
reading the status of a 503 was told the opposite of the verdict; it now leads with `not
ready:` and the reasons.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from query_api.server.http_app import build_http_app
from repocontext.app import EmbeddedApp
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


async def test_a_not_ready_body_does_not_say_ready(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True):
        pass
    async with EmbeddedApp(rig_settings(tmp_path)) as app:
        await app.start()  # resumes "repo": its comparison with the disk has not run yet
        asgi = build_http_app(app.mcp_server(), app.service, "127.0.0.1")
        transport = httpx.ASGITransport(app=asgi)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            ready = await http.get("/health/ready")
        body = ready.json()
        assert ready.status_code == 503 and body["ready"] is False, body
        assert body["notReady"][0].startswith("checking:"), body
        assert body["status"].startswith("not ready: checking:"), body["status"]
