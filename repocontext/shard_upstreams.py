"""Open MCP sessions from a sharded query replica to the other shards (repocontext/
shard_routing.py): one per (owner URL, caller's Authorization), kept and reused, because
opening one costs an initialize round trip and more; one that broke (the owner restarted or
expired it) is replaced once per call, and an owner that cannot be reached fails the call at
once instead of after the read timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from datetime import timedelta
from typing import Any

import httpx
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

FORWARD_TIMEOUT_S = 30.0  # the owner's answer (its own tool deadline is 30 s by default)
POOL_SIZE = 64  # open upstream sessions at most (owner x caller); the oldest closes first


class _WatchedTransport(httpx.AsyncHTTPTransport):
    """Sets `broken` when a POST cannot reach the owner. The MCP client hands such an error
    to no pending request (the call would wait out its whole timeout), so the caller races
    its call against this event instead."""

    def __init__(self, broken: asyncio.Event) -> None:
        super().__init__()
        self.broken = broken

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except httpx.TransportError:
            if request.method == "POST":
                self.broken.set()
            raise


class Upstream:
    """One open MCP session to another shard, owned by a task of its own (the client's
    streams live in the task that opened them); `close()` ends it."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url = url
        self.headers = headers
        self.session: ClientSession | None = None
        self.error: BaseException | None = None
        self.broken = asyncio.Event()  # a request could not reach the owner
        self._ready = asyncio.Event()
        self._closing = asyncio.Event()
        self._task = asyncio.create_task(self._hold())

    async def _hold(self) -> None:
        try:
            async with (
                httpx.AsyncClient(
                    headers=self.headers,
                    timeout=httpx.Timeout(FORWARD_TIMEOUT_S),
                    transport=_WatchedTransport(self.broken),
                ) as client,
                streamable_http_client(self.url, http_client=client) as (read, write, _),
                ClientSession(
                    read, write, read_timeout_seconds=timedelta(seconds=FORWARD_TIMEOUT_S)
                ) as session,
            ):
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._closing.wait()
        except Exception as exc:  # the owner did not answer, or the session broke
            self.error = exc
        finally:
            self.session = None
            self._ready.set()

    async def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        """The owner's answer; ConnectionError as soon as the owner cannot be reached."""
        await self._race(self._ready.wait())
        if self.session is None:
            raise self.error or ConnectionError(f"no session with {self.url}")
        result: types.CallToolResult = await self._race(self.session.call_tool(name, arguments))
        return result

    async def _race(self, work: Any) -> Any:
        task = asyncio.ensure_future(work)
        broken = asyncio.ensure_future(self.broken.wait())
        try:
            await asyncio.wait({task, broken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            broken.cancel()
        if task.done():
            return task.result()
        task.cancel()
        raise ConnectionError(f"{self.url} cannot be reached")

    async def close(self) -> None:
        self._closing.set()
        with contextlib.suppress(Exception):
            await self._task


class UpstreamPool:
    """Open sessions by (url, Authorization): a caller's calls to one shard share one."""

    def __init__(self, size: int = POOL_SIZE) -> None:
        self.size = size
        self._open: OrderedDict[tuple[str, str], Upstream] = OrderedDict()
        self.opened = 0  # sessions opened so far (tests and logs)

    async def call(
        self, url: str, headers: dict[str, str], name: str, arguments: dict[str, Any] | None
    ) -> types.CallToolResult:
        key = (url, headers.get("authorization", ""))
        for attempt in (1, 2):
            upstream = self._open.get(key)
            if upstream is not None and upstream.broken.is_set():
                del self._open[key]
                await upstream.close()
                upstream = None
            if upstream is None:
                upstream = self._open[key] = Upstream(url, headers)
                self.opened += 1
                await self._evict()
            self._open.move_to_end(key)
            try:
                return await upstream.call(name, arguments)
            except Exception:
                if self._open.get(key) is upstream:
                    del self._open[key]
                await upstream.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _evict(self) -> None:
        while len(self._open) > self.size:
            _, oldest = self._open.popitem(last=False)
            await oldest.close()
