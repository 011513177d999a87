"""Several agents on one data directory (issue 24 item 7): the process holding the lock serves
the others through its Unix socket (repocontext/agent_socket.py). Real processes, real MCP
clients over HTTP and stdio."""

from __future__ import annotations

import contextlib
import json
import stat
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from repocontext.agent_socket import socket_path
from tests.conftest import ServeProcess, child_env, cli_command, write_sample_repo
from tests.integration.mcp_helpers import (
    call,
    http_session,
    search_paths,
    stdio_session,
    wait_for,
    wait_indexed,
)

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
NOTE = {"repoId": "sample", "topic": "decisions", "id": "shared", "body": "one log, many agents"}
KEY = "repo/sample/mem/decisions/shared"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_sample_repo(tmp_path / "ws" / "sample")


@contextlib.asynccontextmanager
async def stdio_logged(data_dir: Path, log: Path, *args: str) -> AsyncIterator[ClientSession]:
    """A stdio agent whose stderr goes to `log` (what it says when its owner goes away)."""
    command = cli_command("mcp", *args)
    params = StdioServerParameters(command=command[0], args=command[1:], env=child_env(data_dir))
    with open(log, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


async def recalled(session: ClientSession) -> str | None:
    got = await call(session, "repocontext_recall", {"key": KEY})
    return got["fields"].get("body") if got.get("exists") else None


async def took_over(*logs: Path) -> bool:
    """Whether every attached agent whose owner exited serves again: as the new owner, or
    through the one that took over first."""
    said = [log.read_text() for log in logs]
    return all("owns" in text or "served by pid" in text for text in said)


async def test_a_server_and_two_stdio_agents_share_one_data_directory(
    repo: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    logs = (tmp_path / "first.log", tmp_path / "second.log")
    server = ServeProcess(repo, data)
    try:
        assert stat.S_IMODE(socket_path(data).stat().st_mode) == 0o600
        async with (
            stdio_logged(data, logs[0], str(repo)) as first,
            stdio_logged(data, logs[1], str(repo)) as second,
        ):
            async with http_session(server.base) as http:
                for session in (http, first, second):
                    await wait_indexed(session, "sample")
                    assert "src/billing/invoice.py" in await search_paths(
                        session, "sample", "invoice total"
                    )
                await call(first, "repocontext_remember", NOTE)
                assert await recalled(second) == NOTE["body"]  # one owner: visible at once
                assert await recalled(http) == NOTE["body"]
                tools = {tool.name for tool in (await second.list_tools()).tools}
                assert "repocontext_remember" in tools

            # `index` while the server runs indexes through it instead of failing
            run = subprocess.run(
                cli_command("index", str(repo)),
                env=child_env(data),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert run.returncode == 0, run.stderr
            assert '"status": "Completed"' in run.stdout and "Traceback" not in run.stderr
            assert "indexing through it" in run.stderr

            # `search` while the server runs: it answers through the server, the same answer
            # as a search that owns the data directory; a path the server may not read is
            # refused with the reason, not answered with nothing
            run = subprocess.run(
                cli_command("search", str(repo), "invoice total", "-k", "3"),
                env=child_env(data),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert run.returncode == 0, run.stderr
            answer = json.loads(run.stdout)
            assert answer["repoId"] == "sample" and answer["retrievalPath"], answer
            assert answer["hits"][0]["entry"]["path"] == "src/billing/invoice.py", answer
            assert "indexing through it" in run.stderr and "Traceback" not in run.stderr
            other = write_sample_repo(tmp_path / "elsewhere" / "other")
            run = subprocess.run(
                cli_command("search", str(other), "invoice total"),
                env=child_env(data),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert run.returncode == 1 and "outside the workspace root" in run.stderr, run
            assert run.stdout == "" and "Traceback" not in run.stderr

            # the server (`make run`) exits: one stdio agent takes the data directory over,
            # the other serves through it; both sessions go on, memory intact and shared
            server.stop()
            await wait_for(lambda: took_over(*logs), 60.0, "the stdio agents to take over")
            assert sum("owns" in log.read_text() for log in logs) == 1
            for session in (first, second):
                assert await recalled(session) == NOTE["body"]
                assert "src/billing/invoice.py" in await search_paths(
                    session, "sample", "invoice total"
                )
            await call(second, "repocontext_remember", {**NOTE, "id": "after"})
            got = await call(first, "repocontext_recall", {"key": KEY.replace("shared", "after")})
            assert got["fields"]["body"] == NOTE["body"]
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    for agent in logs:
        said = agent.read_text()
        assert "Traceback" not in said and " ERROR " not in said, said[-3000:]


async def test_two_stdio_agents_and_the_owner_going_away(repo: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    errlog, owner_log = tmp_path / "attached.log", tmp_path / "owner.log"
    owner_ready, owner_leave = anyio.Event(), anyio.Event()
    sessions: dict[str, ClientSession] = {}

    async def owner() -> None:  # its own task, so it can leave before the attached agent
        async with stdio_logged(data, owner_log, str(repo)) as first:
            sessions["first"] = first
            await wait_indexed(first, "sample")
            owner_ready.set()
            await owner_leave.wait()

    async with anyio.create_task_group() as group:
        group.start_soon(owner)
        await owner_ready.wait()
        async with stdio_logged(data, errlog, str(repo)) as second:
            await call(second, "repocontext_remember", NOTE)  # through the attached agent
            assert await recalled(sessions["first"]) == NOTE["body"]
            assert await recalled(second) == NOTE["body"]
            owner_leave.set()  # the owner's client leaves: the owner process exits

            # the attached agent takes the data directory over; its session goes on
            await wait_for(lambda: took_over(errlog), 60.0, "the attached agent to take over")
            assert await recalled(second) == NOTE["body"]
            assert "src/billing/invoice.py" in await search_paths(second, "sample", "invoice total")
            await call(second, "repocontext_remember", {**NOTE, "id": "after"})
            # and it serves the next agent, as the owner did
            async with stdio_session(data, str(repo)) as third:
                got = await call(
                    third, "repocontext_recall", {"key": KEY.replace("shared", "after")}
                )
                assert got["fields"]["body"] == NOTE["body"]
    assert "taking over" in errlog.read_text()
    for log in (errlog, owner_log):
        said = log.read_text()
        assert "Traceback" not in said and "asyncio" not in said and " ERROR " not in said, said
