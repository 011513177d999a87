"""Claims over the real MCP client: grants, FIFO waits, timeouts, renew/release reasons, the
fence verdicts on writes, and fencing tokens that keep increasing across a restart."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import ClientSession

from tests.integration.mcp_helpers import call, call_error, wait_for
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
KEY = "repo/repo/mem/backlog/issue-1"


async def _item(s: ClientSession) -> None:
    await call(
        s,
        "repocontext_remember",
        {
            "repoId": "repo",
            "topic": "backlog",
            "id": "issue-1",
            "tags": ["backlog"],
        },
    )


async def test_claim_fence_verdicts_over_mcp(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        missing = await call(s, "repocontext_claim", {"key": KEY, "owner": "a"})
        assert missing["granted"] is False and missing["reason"] == "missing"
        await _item(s)
        got = await call(s, "repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": 120})
        assert got["granted"] is True and got["leaseSeconds"] == 120 and got["owner"] == "a"
        token = got["fencingToken"]
        busy = await call(s, "repocontext_claim", {"key": KEY, "owner": "b"})
        assert busy["granted"] is False and busy["reason"] == "contended"

        status = await call(s, "repocontext_claim_status", {"key": KEY})
        assert status["claimed"] and status["isHeld"] and status["fencingToken"] == token
        assert status["authoritative"] is False and status["owner"] == "a"

        body = {"key": KEY, "fields": {"body": "working"}}
        assert "ClaimRequired" in await call_error(s, "repocontext_update", body)
        assert "UnissuedToken" in await call_error(
            s, "repocontext_update", {**body, "fencingToken": token + 1000}
        )
        assert "ForeignRegion" in await call_error(
            s, "repocontext_update", {**body, "fencingToken": token, "region": "eu-west"}
        )
        await call(s, "repocontext_update", {**body, "fencingToken": token})
        assert "ClaimRequired" in await call_error(s, "repocontext_forget", {"key": KEY})

        rel = await call(s, "repocontext_release_claim", {"key": KEY, "fencingToken": token})
        assert rel["released"] is True and rel.get("reason") is None
        again = await call(s, "repocontext_release_claim", {"key": KEY, "fencingToken": token})
        assert again["released"] is False and again["reason"] == "unclaimed"
        await call(s, "repocontext_update", {"key": KEY, "fields": {"title": "unfenced ok"}})
        assert "ClaimReleased" in await call_error(
            s, "repocontext_update", {**body, "fencingToken": token}
        )
        second = await call(s, "repocontext_claim", {"key": KEY, "owner": "b"})
        assert second["fencingToken"] > token
        assert "StaleToken" in await call_error(
            s, "repocontext_update", {**body, "fencingToken": token}
        )
        stale = await call(s, "repocontext_release_claim", {"key": KEY, "fencingToken": token})
        assert stale["reason"] == "stale"
        renewed = await call(s, "repocontext_renew_claim", {"key": KEY, "fencingToken": token})
        assert renewed["granted"] is False and renewed["reason"] == "superseded"
        assert (
            renewed.get("leaseShortened") is None
            and renewed.get("previousLeaseExpiresAtUtc") is None
        )


async def test_renew_default_and_shortening(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        await _item(s)
        got = await call(s, "repocontext_claim", {"key": KEY, "owner": "a"})
        assert got["leaseSeconds"] == 30  # omitted lease: the short default, same as renew
        token = got["fencingToken"]
        args = {"key": KEY, "fencingToken": token}
        same = await call(s, "repocontext_renew_claim", args)
        assert same["leaseSeconds"] == 30 and same["fencingToken"] == token
        long = await call(s, "repocontext_renew_claim", {**args, "leaseSeconds": 10_000})
        assert long["leaseSeconds"] == 1800 and long["leaseShortened"] is False  # clamped
        short = await call(s, "repocontext_renew_claim", args)
        assert short["leaseShortened"] is True
        assert short["previousLeaseExpiresAtUtc"] == long["leaseExpiresAtUtc"]


async def has(results: dict[str, dict[str, object]], owner: str) -> bool:
    return owner in results


async def test_fifo_wait_and_timeout(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        await _item(s)
        held = await call(s, "repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": 600})
        timed = await call(
            s, "repocontext_claim", {"key": KEY, "owner": "b", "maxWaitSeconds": 0.3}
        )
        assert timed["granted"] is False and timed["reason"] == "timeout"
        assert "note" not in timed  # within the cap: nothing to say
        results: dict[str, dict[str, object]] = {}

        async def wait_claim(owner: str) -> None:
            results[owner] = await call(
                s,
                "repocontext_claim",
                {"key": KEY, "owner": owner, "maxWaitSeconds": 15, "leaseSeconds": 600},
            )

        async def queued(depth: int) -> bool:
            status = await call(s, "repocontext_claim_status", {"key": KEY})
            return bool(status["queueDepth"] == depth)

        async with anyio.create_task_group() as tg:
            tg.start_soon(wait_claim, "b")
            await wait_for(lambda: queued(1), 10, "b to queue")
            tg.start_soon(wait_claim, "c")
            await wait_for(lambda: queued(2), 10, "c to queue")
            await call(
                s, "repocontext_release_claim", {"key": KEY, "fencingToken": held["fencingToken"]}
            )
            await wait_for(lambda: has(results, "b"), 15, "b's grant")
            b = results["b"]
            assert b["granted"] is True and "c" not in results  # FIFO: b first
            await call(
                s, "repocontext_release_claim", {"key": KEY, "fencingToken": b["fencingToken"]}
            )
        c = results["c"]
        assert c["granted"] is True
        assert held["fencingToken"] < b["fencingToken"] < c["fencingToken"]  # type: ignore[operator]


async def test_a_capped_wait_says_so(tmp_path: Path) -> None:
    """A call has a deadline, so maxWaitSeconds is capped below it (here 5 - 2 - 1 = 2 s):
    the parameter's description states the cap, and a timeout after a capped wait says it."""
    async with memory_rig(tmp_path, tool_timeout_s=5.0, memory_write_timeout_s=2.0) as (_, s):
        listed = {tool.name: tool for tool in (await s.list_tools()).tools}
        wait = listed["repocontext_claim"].inputSchema["properties"]["maxWaitSeconds"]
        assert (
            "capped" in wait["description"] and "REPOCONTEXT_TOOL_TIMEOUT_S" in wait["description"]
        )
        await _item(s)
        await call(s, "repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": 600})
        timed = await call(s, "repocontext_claim", {"key": KEY, "owner": "b", "maxWaitSeconds": 60})
        assert timed["granted"] is False and timed["reason"] == "timeout"
        assert "maxWaitSeconds 60 was capped at 2 s" in timed["note"], timed


async def test_tokens_increase_across_restart(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        await _item(s)
        first = await call(s, "repocontext_claim", {"key": KEY, "owner": "a"})
        await call(
            s, "repocontext_release_claim", {"key": KEY, "fencingToken": first["fencingToken"]}
        )
        await call(s, "repocontext_forget", {"key": KEY})
        await _item(s)
    async with memory_rig(tmp_path) as (_, s):
        status = await call(s, "repocontext_claim_status", {"key": KEY})
        assert status["exists"] and status.get("fencingToken") is None  # recreated after forget
        second = await call(s, "repocontext_claim", {"key": KEY, "owner": "b"})
        assert second["fencingToken"] > first["fencingToken"]
