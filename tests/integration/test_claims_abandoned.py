"""Claims whose caller goes away (spec §4.4): a waiter cancelled by notifications/cancelled or
by a closed session leaves the FIFO queue at once, and a grant that lands as its claim is
cancelled is released, so no lock is ever held by a caller that will never see its token."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import anyio
import mcp.types as mt
import pytest
from mcp import ClientSession
from mcp.shared.exceptions import McpError
from mcp.shared.memory import create_connected_server_and_client_session

from repocontext.app import EmbeddedApp
from schemas import memory_tools as m
from streams.stores.read_budget import read_budget
from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
KEY = "repo/repo/mem/backlog/issue-1"
WAIT = {"key": KEY, "owner": "gone", "maxWaitSeconds": 15, "leaseSeconds": 600}


async def _item(s: ClientSession) -> None:
    args = {"repoId": "repo", "topic": "backlog", "id": "issue-1", "tags": ["backlog"]}
    await call(s, "repocontext_remember", args)


async def _status(s: ClientSession) -> dict[str, Any]:
    return await call(s, "repocontext_claim_status", {"key": KEY})


async def _cancelled_by_notification(app: EmbeddedApp, s: ClientSession) -> None:
    async with create_connected_server_and_client_session(app.mcp_server()) as b:
        request_id = b._request_id  # the id the next request gets

        async def waiting_claim() -> None:
            with contextlib.suppress(McpError):  # the server answers "Request cancelled"
                await b.call_tool("repocontext_claim", WAIT)

        async with anyio.create_task_group() as tg:
            tg.start_soon(waiting_claim)
            await wait_for(lambda: _queued(s, 1), 10, "the waiter to queue")
            cancel = mt.CancelledNotification(
                params=mt.CancelledNotificationParams(requestId=request_id)
            )
            await b.send_notification(mt.ClientNotification(cancel))


async def _gone_with_its_session(app: EmbeddedApp, s: ClientSession) -> None:
    async def waiting_session() -> None:
        async with create_connected_server_and_client_session(app.mcp_server()) as b:
            await b.call_tool("repocontext_claim", WAIT)

    async with anyio.create_task_group() as tg:
        tg.start_soon(waiting_session)
        await wait_for(lambda: _queued(s, 1), 10, "the waiter to queue")
        tg.cancel_scope.cancel()  # the client goes away: its session closes


async def _queued(s: ClientSession, depth: int) -> bool:
    return bool((await _status(s))["queueDepth"] == depth)


@pytest.mark.parametrize("leave", [_cancelled_by_notification, _gone_with_its_session])
async def test_an_abandoned_waiter_leaves_the_queue(tmp_path: Path, leave: Any) -> None:
    async with memory_rig(tmp_path) as (app, s):
        await _item(s)
        held = await call(s, "repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": 600})
        await leave(app, s)
        # before the fix the dead waiter stayed first in line for its whole maxWaitSeconds
        await wait_for(lambda: _queued(s, 0), 10, "the abandoned waiter to leave the queue")
        status = await _status(s)
        assert status["isHeld"] and status["owner"] == "a"  # the holder is untouched
        await call(
            s, "repocontext_release_claim", {"key": KEY, "fencingToken": held["fencingToken"]}
        )
        fresh = await call(s, "repocontext_claim", {"key": KEY, "owner": "c"})
        assert fresh["granted"] is True and fresh["owner"] == "c", fresh


async def test_a_grant_racing_the_cancellation_is_handed_back(tmp_path: Path) -> None:
    """Cancel a claim on a free lock after 0, 1, 2 ... turns of the event loop: some land
    after its command is in the log and before its verdict. Then the command is granted all
    the same, and the withdrawal must release it: the lock ends free, its token released."""
    async with memory_rig(tmp_path) as (app, s):
        await _item(s)
        args = m.ClaimArgs(key=KEY, owner="gone", leaseSeconds=600.0)
        raced = 0
        for turns in range(12):
            fence = (await _status(s)).get("fencingToken", 0)
            task = asyncio.ensure_future(app.services.claims.claim(args))
            for _ in range(turns):
                await asyncio.sleep(0)
            task.cancel()
            try:
                got = await task
            except asyncio.CancelledError:
                status = await _status(s)
                assert not status["isHeld"], f"cancelled after {turns} turns: {status}"
                if status.get("fencingToken", 0) > fence:  # granted after the caller left
                    raced += 1
                    assert status["releasedFencingToken"] == status["fencingToken"], status
                assert status["queueDepth"] == 0, status
            else:  # answered before the cancellation: the caller has its token
                release = {"key": KEY, "fencingToken": got.fencingToken}
                await call(s, "repocontext_release_claim", release)
        assert raced, "no cancellation landed between a claim's append and its verdict"


async def test_a_grant_racing_the_cancellation_is_handed_back_under_the_calls_budget(
    tmp_path: Path,
) -> None:
    """The same race as the call guard runs it: under the call's read budget, which ends
    when the cancelled call returns. The withdrawal outlives the call; its reads must not
    end with the call's budget (over stdio a cancelled waiter logged "an abandoned claim ...
    could not be withdrawn: the read's deadline of 30 s had passed" 4 s into the call, and a
    grant that raced the cancellation stayed held by nobody until its lease ran out)."""
    async with memory_rig(tmp_path) as (app, s):
        await _item(s)
        args = m.ClaimArgs(key=KEY, owner="gone", leaseSeconds=600.0)

        async def budgeted_claim() -> m.ClaimResult:
            with read_budget(30.0):
                return await app.services.claims.claim(args)

        raced = 0
        for turns in range(12):
            fence = (await _status(s)).get("fencingToken", 0)
            task = asyncio.ensure_future(budgeted_claim())
            for _ in range(turns):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.sleep(0)
            task.cancel()  # a cancel scope (anyio, the MCP server's) cancels again and again
            try:
                got = await task
            except asyncio.CancelledError:
                await wait_for(lambda: _settled(app), 10, "the withdrawal to land")
                status = await _status(s)
                assert not status["isHeld"], f"cancelled after {turns} turns: {status}"
                if status.get("fencingToken", 0) > fence:
                    raced += 1
                    assert status["releasedFencingToken"] == status["fencingToken"], status
            else:
                release = {"key": KEY, "fencingToken": got.fencingToken}
                await call(s, "repocontext_release_claim", release)
        assert raced, "no cancellation landed between a claim's append and its verdict"


async def _settled(app: EmbeddedApp) -> bool:
    """No withdrawal still running, and every command it sent applied."""
    return not app.services.claims._withdrawals and await app.runtime.wait_idle(10)
