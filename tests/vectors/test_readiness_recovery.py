"""A serving plane's readiness survives a keyword fallback it has recovered from.

A repository searched before its vectors arrive answers by keyword
(`keyword.vector_plane_unavailable`), which readiness holds as a fault for 30 s (spec §5.1).
Before, nothing cleared it but another semantic answer: a quiet server whose plane was fine
turned not ready 30 s after that one search. The warm-up probe now runs again while a fault
is pending, and its semantic answer clears it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from query_api.server.http_app import build_http_app
from schemas import tools as t
from schemas.retrieval import RetrievalPath
from tests.ingested import ingested
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


async def test_the_probe_clears_a_fault_the_plane_recovered_from(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        await rig.indexer.run_until_idle()
        readiness = rig.plane.readiness
        stop = asyncio.Event()
        probe = asyncio.create_task(rig.plane.warm_up(stop, lambda: ["late", "repo"]))
        try:
            deadline = time.monotonic() + 20
            while readiness.verdict(has_repos=True)[:2] != ("serving", True):
                assert time.monotonic() < deadline, readiness.verdict(has_repos=True)
                await asyncio.sleep(0.05)

            late = tmp_path / "ws" / "late"
            late.mkdir()
            (late / "queue.py").write_text("def drain_queue(items):\n    return list(items)\n")
            await rig.app.service.add_repo(t.AddRepoArgs(path=str(late), repoId="late"))
            await ingested(rig.app, "late")
            assert await rig.app.runtime.wait_idle(30)
            answer = await rig.plane.retriever.search("late", "drain queue", 5)
            assert answer.path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
            assert readiness.fault_pending

            deadline = time.monotonic() + 20  # the probe polls every 2 s
            while readiness.fault_pending:
                assert time.monotonic() < deadline, "the probe did not clear the fault"
                await asyncio.sleep(0.05)
            assert readiness.verdict(has_repos=True)[:2] == ("serving", True)
        finally:
            stop.set()
            await asyncio.wait_for(probe, 10)


async def test_a_fault_the_plane_cannot_clear_still_revokes_readiness(tmp_path: Path) -> None:
    """The probe retries without clearing what no semantic answer disproves: with the only
    repository's vectors gone, the fault stays pending."""
    async for rig in open_rig(tmp_path):
        await rig.indexer.run_until_idle()
        assert (await rig.search("retry backoff"))[0] == RetrievalPath.SEMANTIC_EXACT
        rig.store.delete_repo("repo")
        stop = asyncio.Event()
        probe = asyncio.create_task(rig.plane.warm_up(stop, lambda: ["repo"]))
        try:
            assert (await rig.search("retry backoff"))[0] == (
                RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
            )
            await asyncio.sleep(3)  # past the first poll and probe
            assert rig.plane.readiness.fault_pending
        finally:
            stop.set()
            await asyncio.wait_for(probe, 10)


async def test_a_not_ready_answer_says_why(tmp_path: Path) -> None:
    """/health/ready's 503 while the plane is building names it in `notReady` (it was an
    empty list when retrieval alone was not ready)."""
    async for rig in open_rig(tmp_path):
        rig.app.service.readiness = rig.plane.readiness  # what EmbeddedApp.open wires
        asgi = build_http_app(rig.app.mcp_server(), rig.app.service, "127.0.0.1")
        transport = httpx.ASGITransport(app=asgi)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            ready = await http.get("/health/ready")
        body = ready.json()
        assert ready.status_code == 503 and body["ready"] is False, body
        assert body["notReady"] and body["notReady"][0].startswith("building:"), body
