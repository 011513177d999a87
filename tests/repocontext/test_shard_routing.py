"""A sharded replica's routing of tool calls (repocontext/shard_routing.py), without a broker:
which repository a call names, a call for this shard's repository reaching the tools, one for
another shard's refused naming the owner (and its URL), and the shard settings refused at
start when they cannot be right. Forwarding itself runs on the real broker:
tests/kafka/test_kafka_shards.py."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import types
from mcp.server.lowlevel import Server
from pydantic import ValidationError

from query_api.settings import Settings
from repocontext.shard_routing import ShardRouter, repo_of_call
from streams.runtime.shards import ShardAssignment
from tests.streams.test_replica_shards import repos_by_shard

pytestmark = pytest.mark.anyio


def test_the_repository_of_a_call() -> None:
    assert repo_of_call({"repoId": "koa", "query": "x"}) == "koa"
    assert repo_of_call({"key": "repo/koa/mem/decisions/db"}) == "koa"
    assert repo_of_call({"key": "global-note"}) is None
    assert repo_of_call({}) is None and repo_of_call(None) is None


def routed_server(settings: Settings) -> tuple[Server[Any, Any], list[str]]:
    server: Server[Any, Any] = Server("t")
    answered: list[str] = []

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        answered.append(str(arguments.get("repoId")))
        return [types.TextContent(type="text", text="here")]

    ShardRouter(settings.shard(), settings).install(server)
    return server, answered


async def call(server: Server[Any, Any], repo: str) -> types.CallToolResult:
    request = types.CallToolRequest(
        params=types.CallToolRequestParams(name="repocontext_search", arguments={"repoId": repo})
    )
    result = (await server.request_handlers[types.CallToolRequest](request)).root
    assert isinstance(result, types.CallToolResult)
    return result


@pytest.mark.parametrize("urls", [None, "http://query-{shard}:8080/mcp"])
async def test_a_call_for_another_shard_is_refused_naming_it(urls: str | None) -> None:
    (mine,), (theirs,) = reversed(repos_by_shard(2))  # shard 1's, shard 0's
    settings = Settings(replica_shard="1/2", shard_urls=urls)
    server, answered = routed_server(settings)
    assert not (await call(server, mine)).isError and answered == [mine]
    result = await call(server, theirs)
    text = " ".join(getattr(b, "text", "") for b in result.content)
    assert result.isError and answered == [mine]
    if urls is None:  # nowhere to forward to: refused, naming the owner
        assert text == (
            f"repository {theirs!r} is not held by this replica (shard 1/2); it lives on "
            "shard 0/2: call that replica"
        )
    else:  # forwarded to an owner that cannot be reached: said at once, naming it
        assert text.startswith(
            f"repository {theirs!r} lives on shard 0/2 (http://query-0:8080/mcp), which did "
            "not answer"
        )


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"replica_shard": "1/4"}, "do not divide"),
        ({"replica_shard": "0/2", "shard_urls": "http://a/mcp"}, r"lists 1 URL\(s\) for 2 shard"),
    ],
)
def test_shard_settings_that_cannot_be_right_are_refused(fields: dict[str, str], why: str) -> None:
    with pytest.raises(ValidationError, match=why):
        Settings.model_validate(fields)
    assert ShardAssignment.parse("0/2").owner_of("x") in (0, 1)
