"""A sharded query replica's answer to a call for a repository it does not hold
(deploy/SCALING.md): forwarded to the replica of the shard that holds it, or refused with an
error that names that shard (and its address, when known).

The repository of a call is its `repoId` argument, else the repository of a memory `key`
(`repo/{repoId}/...`); a call naming none (a search over every repository, list_repos)
answers from this replica's own repositories. Forwarding opens an MCP session on the owner
with the caller's own Authorization header, so the owner checks the caller's grants as if
called directly; the owner never forwards again (a wrong address template is refused there
instead of bouncing between replicas).
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from query_api.settings import Settings
from streams.runtime.shards import ShardAssignment

log = logging.getLogger("repocontext")
FORWARDED_HEADER = "x-repocontext-forwarded-by"  # the shard that forwarded the call
FORWARD_TIMEOUT_S = 60.0


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


class ShardRouter:
    """Wraps an MCP server's tools/call handler; see the module docstring."""

    def __init__(self, shard: ShardAssignment, settings: Settings) -> None:
        self.shard = shard
        self.url_of = settings.shard_url  # where a shard answers (None: not configured)
        self.forwarded = 0  # calls answered by another shard (for tests and logs)

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
            result = await self._call(url, forward, req.params.name, req.params.arguments)
        except Exception as exc:  # an owner that does not answer: say so, name it
            log.warning("forwarding %s for %s to %s failed: %r", req.params.name, repo, url, exc)
            return _refusal(
                f"repository {repo!r} lives on {where}, which did not answer "
                f"({type(exc).__name__}); try again shortly or call it directly"
            )
        self.forwarded += 1
        return types.ServerResult(result)

    async def _call(
        self, url: str, headers: dict[str, str], name: str, arguments: dict[str, Any] | None
    ) -> types.CallToolResult:
        timeout = httpx.Timeout(FORWARD_TIMEOUT_S)
        async with (
            httpx.AsyncClient(headers=headers, timeout=timeout) as client,
            streamable_http_client(url, http_client=client) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool(name, arguments)
