"""A claim waiting over streamable HTTP whose client goes away (spec §4.4).

A QA pass against `repocontext serve` on koa: a client killed while its claim waited in the
queue (maxWaitSeconds 18) stayed in the queue for all 18 s, and when the holder released
meanwhile the dead waiter was granted the lock, held by nobody for its whole 600 s lease.
Over HTTP the SDK runs a call on in the session, whatever happens to the request's
connection; the listener now treats a POST whose connection closes before its answer as a
cancelled request (notifications/cancelled), as stdio and a closed session already are.
Real app, uvicorn on a real socket, raw HTTP for the caller that vanishes."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession

from query_api.server.http_app import build_http_app
from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig
from tests.integration.test_http_answer_body import listening
from tests.integration.test_http_limits import ACCEPT, INITIALIZE

pytestmark = pytest.mark.anyio
KEY = "repo/repo/mem/backlog/issue-1"


async def _status(s: ClientSession) -> dict[str, Any]:
    return await call(s, "repocontext_claim_status", {"key": KEY})


async def _queued(s: ClientSession, depth: int) -> bool:
    return bool((await _status(s))["queueDepth"] == depth)


async def _waiting_claim(base: str) -> None:
    """A caller that waits for the claim over plain HTTP until it is cancelled."""
    async with httpx.AsyncClient(base_url=base, headers={"Accept": ACCEPT}, timeout=60) as http:
        opened = await http.post("/mcp", json=INITIALIZE)
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        await http.post("/mcp", json=ready, headers=session)
        args = {"key": KEY, "owner": "gone", "maxWaitSeconds": 15, "leaseSeconds": 600}
        params = {"name": "repocontext_claim", "arguments": args}
        request = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}
        await http.post("/mcp", json=request, headers=session)


@pytest.mark.parametrize("json_response", [True, False])
async def test_a_waiter_whose_connection_closes_leaves_the_queue(
    tmp_path: Path, json_response: bool
) -> None:
    async with memory_rig(tmp_path) as (app, s):
        item = {"repoId": "repo", "topic": "backlog", "id": "issue-1", "tags": ["backlog"]}
        await call(s, "repocontext_remember", item)
        held = await call(s, "repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": 600})
        asgi = build_http_app(
            app.mcp_server(), app.service, "127.0.0.1", json_response=json_response
        )
        async with listening(asgi) as base:
            waiter = asyncio.create_task(_waiting_claim(base))
            await wait_for(lambda: _queued(s, 1), 10, "the waiter to queue")
            waiter.cancel()  # the client goes away: its connection closes
            with contextlib.suppress(asyncio.CancelledError):
                await waiter
            # before the fix the dead waiter stayed first in line for its whole 15 s
            await wait_for(lambda: _queued(s, 0), 10, "the waiter to leave the queue")
            release = {"key": KEY, "fencingToken": held["fencingToken"]}
            await call(s, "repocontext_release_claim", release)
            await app.runtime.wait_idle(10)
            status = await _status(s)
            assert not status["isHeld"] and status["owner"] == "a", status
