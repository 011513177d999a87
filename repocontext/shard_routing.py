"""A sharded query replica's answer to a call for a repository it does not hold
(deploy/SCALING.md): forwarded to the replica of the shard that holds it, or refused with an
error that names that shard (and its address, when known).

The repository of a call is its `repoId` argument, else the repository of a memory `key`
(`repo/{repoId}/...`); a call naming none (a search over every repository, list_repos)
answers from this replica's own repositories. Forwarding calls the owner over an MCP
session opened with the caller's own Authorization header, so the owner checks the caller's
grants as if called directly; the owner never forwards again (a wrong address template is
refused there instead of bouncing between replicas). Sessions are kept open per (owner,
caller) and reused (`UpstreamPool`): opening one costs an initialize round trip and more; one
that broke (the owner restarted or expired it) is replaced once per call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from datetime import timedelta
from typing import Any

import httpx
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from query_api.settings import Settings
from streams.runtime.shards import ShardAssignment

log = logging.getLogger("repocontext")
FORWARDED_HEADER = "x-repocontext-forwarded-by"  # the shard that forwarded the call
FORWARD_TIMEOUT_S = 30.0  # the owner's answer (its own tool deadline is 30 s by default)
POOL_SIZE = 64  # open upstream sessions at most (owner x caller); the oldest closes first


def repo_of_call(arguments: dict[str, Any] | None) -> str | None:
    """The repository a tool call is about, if it names one."""
    if not isinstance(arguments, dict):
        return None
    repo = arguments.get("repoId")
    if isinstance(repo, str) and repo:
        return repo
    key = arguments.get("key")
    if isinstance(key, str) and key.startswith("repo/"):
        return key.split("/", 2)[1] or None
    return None


def _refusal(text: str) -> types.ServerResult:
    return types.ServerResult(
        types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=True)
    )


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


class ShardRouter:
    """Wraps an MCP server's tools/call handler; see the module docstring."""

    def __init__(self, shard: ShardAssignment, settings: Settings) -> None:
        self.shard = shard
        self.url_of = settings.shard_url  # where a shard answers (None: not configured)
        self.forwarded = 0  # calls answered by another shard (for tests and logs)
        self.upstreams = UpstreamPool()

    def install(self, server: Any) -> None:
        handler = server.request_handlers[types.CallToolRequest]

        async def routed(req: types.CallToolRequest) -> types.ServerResult:
            repo = repo_of_call(req.params.arguments)
            if repo is None or self.shard.holds_repo(repo):
                result: types.ServerResult = await handler(req)
                return result
            return await self._elsewhere(server, req, repo)

        server.request_handlers[types.CallToolRequest] = routed

    async def _elsewhere(
        self, server: Any, req: types.CallToolRequest, repo: str
    ) -> types.ServerResult:
        owner = self.shard.owner_of(repo)
        url = self.url_of(owner)
        where = f"shard {owner}/{self.shard.count}" + (f" ({url})" if url else "")
        request = getattr(server.request_context, "request", None)
        headers = getattr(request, "headers", None) or {}
        if url is None or headers.get(FORWARDED_HEADER):
            return _refusal(
                f"repository {repo!r} is not held by this replica (shard {self.shard.label}); "
                f"it lives on {where}: call that replica"
            )
        forward = {FORWARDED_HEADER: self.shard.label}
        if auth := headers.get("authorization"):
            forward["authorization"] = auth
        try:
            result = await self.upstreams.call(url, forward, req.params.name, req.params.arguments)
        except Exception as exc:  # an owner that does not answer: say so, name it
            log.warning("forwarding %s for %s to %s failed: %r", req.params.name, repo, url, exc)
            return _refusal(
                f"repository {repo!r} lives on {where}, which did not answer "
                f"({type(exc).__name__}); try again shortly or call it directly"
            )
        self.forwarded += 1
        return types.ServerResult(result)
