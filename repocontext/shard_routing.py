"""A sharded query replica's answer to a call for a repository it does not hold
(deploy/SCALING.md): forwarded to the replica of the shard that holds it, or refused with an
error that names that shard (and its address, when known).

The repository of a call is its `repoId` argument, else the repository of a memory `key`
(`repo/{repoId}/...`); a call naming none answers from this replica's own repositories,
except two that fan out to the other shards for the same caller: `repocontext_list_repos`
(with the shards' URLs known) lists every shard's repositories, and `repocontext_search`
without a `repoId` merges every shard's every-repository answer by score
(query_api/core/search_merge.py), its `shards` saying which shards answered and why the
others did not (their repositories are then missing: a partial answer, not an error).
Forwarding calls the owner over an MCP session opened with the caller's own Authorization
header (kept and reused: repocontext/shard_upstreams.py), so the owner checks the caller's
grants as if called directly; the owner never forwards again (a wrong address template is
refused there instead of bouncing between replicas).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from mcp import types

from query_api.answers.render import render
from query_api.core.search_merge import merge_search_answers
from query_api.settings import Settings
from repocontext.shard_upstreams import UpstreamPool
from schemas import tools as t
from streams.runtime.shards import ShardAssignment

log = logging.getLogger("repocontext")
LIST_REPOS = "repocontext_list_repos"  # answered for every shard
SEARCH = "repocontext_search"  # without a repoId: answered for every shard
FORWARDED_HEADER = "x-repocontext-forwarded-by"  # the shard that forwarded the call


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
        self.upstreams = UpstreamPool()

    def install(self, server: Any) -> None:
        handler = server.request_handlers[types.CallToolRequest]

        async def routed(req: types.CallToolRequest) -> types.ServerResult:
            repo = repo_of_call(req.params.arguments)
            if repo is not None and not self.shard.holds_repo(repo):
                return await self._elsewhere(server, req, repo)
            result: types.ServerResult = await handler(req)
            forward, forwarded = self._forward_headers(server)
            if forwarded:  # the forwarding shard asks the others itself
                return result
            if req.params.name == LIST_REPOS and self.url_of(0) is not None:
                return await self._every_shard(req, result, forward)
            if req.params.name == SEARCH and repo is None:
                return await self._search_every_shard(req, result, forward)
            return result

        server.request_handlers[types.CallToolRequest] = routed

    async def _elsewhere(
        self, server: Any, req: types.CallToolRequest, repo: str
    ) -> types.ServerResult:
        owner = self.shard.owner_of(repo)
        url = self.url_of(owner)
        where = f"shard {owner}/{self.shard.count}" + (f" ({url})" if url else "")
        forward, forwarded = self._forward_headers(server)
        if url is None or forwarded:
            return _refusal(
                f"repository {repo!r} is not held by this replica (shard {self.shard.label}); "
                f"it lives on {where}: call that replica"
            )
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

    def _forward_headers(self, server: Any) -> tuple[dict[str, str], bool]:
        """The headers a forwarded call carries (the caller's token), and whether this call
        was itself forwarded by another shard."""
        try:
            request = getattr(server.request_context, "request", None)
        except LookupError:  # outside an HTTP request (stdio, a direct call): no headers
            request = None
        headers = getattr(request, "headers", None) or {}
        forward = {FORWARDED_HEADER: self.shard.label}
        if auth := headers.get("authorization"):
            forward["authorization"] = auth
        return forward, bool(headers.get(FORWARDED_HEADER))

    async def _ask_others(
        self, forward: dict[str, str], name: str, arguments: dict[str, Any]
    ) -> list[tuple[str, types.CallToolResult | str]]:
        """Every other shard's answer to the call, or why there is none: (shard label, answer
        or reason), in shard order."""
        others = [k for k in range(self.shard.count) if k != self.shard.index]
        urls = [self.url_of(k) for k in others]

        async def ask(url: str | None) -> types.CallToolResult | str:
            if url is None:
                return "REPOCONTEXT_SHARD_URLS does not say where it answers"
            try:
                answer = await self.upstreams.call(url, forward, name, arguments)
            except Exception as exc:
                log.warning("%s: shard at %s did not answer: %r", name, url, exc)
                return f"{url} did not answer ({type(exc).__name__})"
            if answer.isError:
                said = " ".join(getattr(block, "text", "") for block in answer.content)
                return f"{url} answered with an error: {said[:300]}"
            return answer

        answers = await asyncio.gather(*(ask(url) for url in urls))
        return [
            (f"{k}/{self.shard.count}", answer) for k, answer in zip(others, answers, strict=True)
        ]

    async def _search_every_shard(
        self, req: types.CallToolRequest, local: types.ServerResult, forward: dict[str, str]
    ) -> types.ServerResult:
        """A search without a repository over every shard: this one's answer and the others',
        merged by score; `shards` says which answered."""
        mine = local.root
        if not isinstance(mine, types.CallToolResult) or mine.isError:
            return local  # refused here (bad arguments, no grant): refused everywhere
        arguments = dict(req.params.arguments or {})
        k = t.SearchArgs.model_validate(arguments).k
        answers = [t.SearchResult.model_validate(mine.structuredContent or {})]
        shards = [t.ShardAnswer(shard=self.shard.label, answered=True)]
        for label, answer in await self._ask_others(forward, SEARCH, arguments):
            if isinstance(answer, str):
                shards.append(t.ShardAnswer(shard=label, answered=False, reason=answer))
                continue
            answers.append(t.SearchResult.model_validate(answer.structuredContent or {}))
            shards.append(t.ShardAnswer(shard=label, answered=True))
        shards.sort(key=lambda s: int(s.shard.split("/")[0]))
        merged = merge_search_answers(answers[0].query, k, answers, answers[0].freshness)
        payload, text = render(merged.model_copy(update={"shards": shards}))
        content = [types.TextContent(type="text", text=text)]
        return types.ServerResult(types.CallToolResult(content=content, structuredContent=payload))

    async def _every_shard(
        self, req: types.CallToolRequest, local: types.ServerResult, forward: dict[str, str]
    ) -> types.ServerResult:
        """list_repos over every shard: this one's answer and the others', merged."""
        mine = local.root
        if not isinstance(mine, types.CallToolResult) or mine.isError:
            return local
        rows = list((mine.structuredContent or {}).get("repositories", []))
        missing = []
        for label, answer in await self._ask_others(forward, LIST_REPOS, {}):
            if isinstance(answer, str):
                missing.append(label)
                continue
            rows += (answer.structuredContent or {}).get("repositories", [])
        rows.sort(key=lambda row: str(row.get("repoId")))
        payload, text = render(
            t.ListReposResult.model_validate({"repositories": rows, "count": len(rows)})
        )
        content = [types.TextContent(type="text", text=text)]
        if missing:
            content.append(
                types.TextContent(
                    type="text",
                    text=f"shard(s) {', '.join(missing)} did not answer: their repositories "
                    "are missing from this list",
                )
            )
        return types.ServerResult(types.CallToolResult(content=content, structuredContent=payload))
