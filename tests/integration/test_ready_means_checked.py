"""At restart the server is not ready until the disk was compared with the views."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from query_api.server.http_app import build_http_app
from repocontext.app import EmbeddedApp
from schemas.tools import RepoIdArgs
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


async def test_restart_is_not_ready_until_the_disk_is_compared(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True):
        pass
    (tmp_path / "ws" / "repo" / "offline_edit.py").write_text("def made_while_down(): pass\n")

    async with EmbeddedApp(rig_settings(tmp_path)) as app:
        await app.start()  # resumes "repo": its comparison with the disk has not run yet
        reasons = app.service.not_ready_reasons()
        assert len(reasons) == 1 and reasons[0].startswith("checking:") and "repo" in reasons[0]

        deadline = time.monotonic() + 60
        while app.service.not_ready_reasons() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert app.service.not_ready_reasons() == []

        asgi = build_http_app(app.mcp_server(), app.service, "127.0.0.1")
        transport = httpx.ASGITransport(app=asgi)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            ready = await http.get("/health/ready")
        assert ready.status_code == 200 and ready.json()["notReady"] == []


async def test_the_attempt_tally_goes_on_across_a_restart(tmp_path: Path) -> None:
    """`attempt` counts every run start (spec: it rises on every reconcile and resume); a
    restarted server began again at 1, as if the repository had never been indexed."""
    async with memory_rig(tmp_path, index=True) as (app, _):
        first = await app.service.index_status(RepoIdArgs(repoId="repo"))
        assert first.attempt == 1
    async with EmbeddedApp(rig_settings(tmp_path)) as app:
        await app.start()  # resumes "repo": its second run
        deadline = time.monotonic() + 60
        while app.service.not_ready_reasons() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        resumed = await app.service.index_status(RepoIdArgs(repoId="repo"))
        assert (resumed.status, resumed.attempt) == ("Completed", 2)
