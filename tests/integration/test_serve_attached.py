"""`serve` started after a stdio agent owns the data directory (issue 24 item 7): it serves its
HTTP endpoint through the owner (repocontext/serve_attached.py), still authenticating its own
callers, and takes over when the owner exits. Real processes, real MCP clients over stdio and
HTTP, a real token file."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import ClientSession

from tests.conftest import ServeProcess, write_sample_repo
from tests.integration.mcp_helpers import (
    call,
    call_error,
    http_session,
    search_paths,
    wait_for,
    wait_indexed,
)
from tests.integration.test_several_agents import KEY, NOTE, recalled, stdio_logged

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
TOKENS = {
    "admin": ("admin-token-4f1d", {"*": ["admin"]}),
    "reader": ("reader-token-8e2a", {"sample": ["read"]}),
}


def session_as(base: str, who: str) -> contextlib.AbstractAsyncContextManager[ClientSession]:
    return http_session(base, TOKENS[who][0], timeout=60)


def token_file(tmp_path: Path) -> Path:
    auth = tmp_path / "tokens.json"
    rows = [{"principal": w, "token": t, "grants": g} for w, (t, g) in TOKENS.items()]
    auth.write_text(json.dumps({"tokens": rows}))
    auth.chmod(0o600)
    return auth


def owns(*logs: Path) -> list[Path]:
    return [log for log in logs if "owns" in log.read_text()]


@pytest.mark.parametrize("serve_last", [False, True], ids=["serve-second", "serve-last"])
async def test_serve_after_a_stdio_owner_serves_through_it_and_takes_over(
    tmp_path: Path, serve_last: bool
) -> None:
    """Started after the owner, before or after the second stdio agent: all four sessions
    answer, memory written by one is read by the others, and the owner's exit leaves one new
    owner."""
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    data = tmp_path / "data"
    owner_log, second_log = tmp_path / "owner.log", tmp_path / "second.log"
    owner_ready, owner_leave = anyio.Event(), anyio.Event()
    sessions: dict[str, ClientSession] = {}

    async def owner() -> None:  # its own task, so it can leave before the others
        async with stdio_logged(data, owner_log, str(repo)) as first:
            sessions["first"] = first
            await wait_indexed(first, "sample")
            owner_ready.set()
            await owner_leave.wait()

    server: ServeProcess | None = None
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(owner)
            await owner_ready.wait()
            env = {"REPOCONTEXT_AUTH_FILE": str(token_file(tmp_path))}
            first = sessions["first"]
            async with contextlib.AsyncExitStack() as agents:
                if serve_last:
                    second = await agents.enter_async_context(
                        stdio_logged(data, second_log, str(repo))
                    )
                server = ServeProcess(repo, data, env=env)  # an owner lives: through it
                if not serve_last:
                    second = await agents.enter_async_context(
                        stdio_logged(data, second_log, str(repo))
                    )
                admin = await agents.enter_async_context(session_as(server.base, "admin"))
                reader = await agents.enter_async_context(session_as(server.base, "reader"))
                for session in (first, second, admin, reader):
                    await wait_indexed(session, "sample")
                    found = await search_paths(session, "sample", "invoice total")
                    assert "src/billing/invoice.py" in found
                await call(admin, "repocontext_remember", NOTE)  # HTTP, through the owner
                assert await recalled(first) == NOTE["body"]
                assert await recalled(second) == NOTE["body"]
                await call(second, "repocontext_remember", {**NOTE, "id": "stdio"})
                got = await call(
                    admin, "repocontext_recall", {"key": KEY.replace("shared", "stdio")}
                )
                assert got["fields"]["body"] == NOTE["body"]

                # this process authenticates: the owner answers as the caller's principal
                assert httpx.post(server.base + "/mcp", json={}).status_code == 401
                tools = {tool.name for tool in (await reader.list_tools()).tools}
                assert "repocontext_search" in tools and "repocontext_remember" not in tools
                refused = await call_error(reader, "repocontext_remember", NOTE)
                assert "unknown tool" in refused, refused
                assert await recalled(reader) == NOTE["body"]
                ready = httpx.get(server.base + "/health/ready", timeout=10)
                assert ready.status_code == 200 and ready.json()["ready"] is True, ready.text

                # the owner exits: serve or the other stdio agent takes over, the other serves
                # through it; every session goes on, memory intact
                owner_leave.set()
                await wait_for(
                    lambda: anyio.to_thread.run_sync(owns, server.log_path, second_log),
                    60.0,
                    "serve or the second agent to take over",
                )
                assert len(owns(server.log_path, second_log)) == 1
                for session in (second, admin, reader):
                    assert await recalled(session) == NOTE["body"]
                    found = await search_paths(session, "sample", "invoice total")
                    assert "src/billing/invoice.py" in found
                await call(admin, "repocontext_remember", {**NOTE, "id": "after"})
                got = await call(
                    second, "repocontext_recall", {"key": KEY.replace("shared", "after")}
                )
                assert got["fields"]["body"] == NOTE["body"]
                assert "repocontext_remember" not in {
                    t.name for t in (await reader.list_tools()).tools
                }
            async with session_as(server.base, "admin") as fresh:  # a new session, too
                assert await recalled(fresh) == NOTE["body"]
            ready = httpx.get(server.base + "/health/ready", timeout=10)
            assert ready.status_code == 200, ready.text
    finally:
        if server is not None:
            server.stop()
    assert server is not None
    for log in (server.log_path, owner_log, second_log):
        said = log.read_text()
        assert "Traceback" not in said and " ERROR " not in said, said[-3000:]


async def test_an_attached_serve_takes_over_when_its_owner_exits(tmp_path: Path) -> None:
    """With no other agent to race it, the attached `serve` is the next owner: at once, with
    its HTTP session open, which goes on (its initialize replayed), and the next stdio agent
    attaches to it."""
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    data = tmp_path / "data"
    owner_log = tmp_path / "owner.log"
    owner_ready, owner_leave = anyio.Event(), anyio.Event()

    async def owner() -> None:
        async with stdio_logged(data, owner_log, str(repo)) as first:
            await wait_indexed(first, "sample")
            await call(first, "repocontext_remember", NOTE)
            owner_ready.set()
            await owner_leave.wait()

    env = {"REPOCONTEXT_AUTH_FILE": str(token_file(tmp_path))}
    server: ServeProcess | None = None
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(owner)
            await owner_ready.wait()
            server = ServeProcess(repo, data, env=env)
            async with session_as(server.base, "admin") as admin:
                assert await recalled(admin) == NOTE["body"]
                owner_leave.set()
                log = server.log_path
                await wait_for(
                    lambda: anyio.to_thread.run_sync(lambda: "owns" in log.read_text()),
                    60.0,
                    "serve to take over",
                )
                assert await recalled(admin) == NOTE["body"]  # the same session
                await call(admin, "repocontext_remember", {**NOTE, "id": "after"})
                async with stdio_logged(data, tmp_path / "next.log", str(repo)) as next_agent:
                    key = KEY.replace("shared", "after")
                    got = await call(next_agent, "repocontext_recall", {"key": key})
                    assert got["fields"]["body"] == NOTE["body"]
                assert "serving through it" in (tmp_path / "next.log").read_text()
            ready = httpx.get(server.base + "/health/ready", timeout=10)
            assert ready.status_code == 200 and ready.json()["owner"] == server.proc.pid
    finally:
        if server is not None:
            server.stop()
    assert server is not None
    said = server.log_path.read_text()
    assert "serve: this process" in said and "Traceback" not in said and " ERROR " not in said
