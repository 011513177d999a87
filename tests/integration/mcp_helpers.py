"""Helpers for driving the real server with the real `mcp` client."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import child_env, cli_command


@contextlib.asynccontextmanager
async def stdio_session(data_dir: Path, *args: str) -> AsyncIterator[ClientSession]:
    command = cli_command("mcp", *args)
    params = StdioServerParameters(command=command[0], args=command[1:], env=child_env(data_dir))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def write_files(root: Path, files: dict[str, str]) -> None:
    """A repository under `root` holding `files` (repo-relative path -> text)."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def mcp_process(
    repo: Path, data_dir: Path, stderr: int = subprocess.PIPE
) -> subprocess.Popen[bytes]:
    """`repocontext mcp .` started in `repo` on `data_dir`, its stdin and stdout pipes: for
    tests that write raw lines or signal the process, which the SDK's client does not."""
    return subprocess.Popen(
        cli_command("mcp", "."),
        cwd=repo,
        env=child_env(data_dir),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
    )


@contextlib.asynccontextmanager
async def http_session(
    base_url: str, token: str | None = None, timeout: float = 30.0
) -> AsyncIterator[ClientSession]:
    """An initialised session over streamable HTTP, sending `token` as a bearer when given."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else None
    client = httpx.AsyncClient(headers=headers, timeout=timeout)
    async with (
        client,
        streamable_http_client(base_url + "/mcp", http_client=client) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured content."""
    result = await session.call_tool(name, args)
    assert not result.isError, f"{name} failed: {result.content}"
    assert result.structuredContent is not None
    return result.structuredContent


async def call_error(session: ClientSession, name: str, args: dict[str, Any]) -> str:
    """Call a tool that must fail; return the error text."""
    result = await session.call_tool(name, args)
    assert result.isError, f"{name} unexpectedly succeeded: {result.structuredContent}"
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert "Traceback" not in text
    return text


async def wait_for(
    probe: Callable[[], Awaitable[Any]], timeout: float = 20.0, what: str = "condition"
) -> Any:
    """Poll `probe` until it returns something truthy; fail with `what` at the deadline."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = await probe()
        if last:
            return last
        await anyio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; last={last!r}")


async def wait_indexed(session: ClientSession, repo_id: str, timeout: float = 30.0) -> None:
    async def done() -> bool:
        status = await call(session, "repocontext_index_status", {"repoId": repo_id})
        assert status["status"] != "Failed", status
        return bool(status["status"] == "Completed")

    await wait_for(done, timeout, f"{repo_id} to finish indexing")


async def wait_caught_up(
    session: ClientSession, repo_id: str, path: str, timeout: float = 30.0
) -> None:
    """Until the views hold every event in the log, as a related answer on `path` says. One
    file's outline is not the whole index: the cross-reference view can trail it (CI read
    `dependents` before they were there), so a test reading dependents waits here."""

    async def done() -> bool:
        got = await call(session, "repocontext_related", {"repoId": repo_id, "path": path})
        return bool(got["freshness"]["eventsBehind"] == 0)

    await wait_for(done, timeout, "the views to catch up with the log")


async def search_paths(session: ClientSession, repo_id: str, query: str) -> list[str]:
    result = await call(session, "repocontext_search", {"repoId": repo_id, "query": query})
    return [hit["entry"]["path"] for hit in result["hits"]]
