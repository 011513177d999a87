"""The `tools/list` answer's size in tokens, for each tool profile (issue 24 item 12).

    .venv/bin/python -m tests.bench.tools_list_tokens [--encoding o200k_base]

Workspace mode with writes and a workspace root (the defaults of `repocontext serve PATH` and
`repocontext mcp PATH`): the server is the real one (query_api/server/mcp_server.py) and the list is
asked for by the MCP SDK's client over its in-memory transport. What is counted is the
JSON-RPC response the client received, compact and without nulls: what travels.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from mcp.shared.memory import create_connected_server_and_client_session

from processors.tokens import count_tokens
from query_api.metrics import Metrics
from query_api.server.mcp_server import build_server
from query_api.server.tool_catalog import visible_tools


def wire_tokens(result: Any, encoding: str) -> tuple[int, int]:
    """(tokens, bytes) of `result` as the JSON-RPC response that carries it."""
    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    text = json.dumps({"jsonrpc": "2.0", "id": 1, "result": dumped}, separators=(",", ":"))
    return count_tokens(text, encoding), len(text.encode())  # type: ignore[arg-type]


async def measure(profile: str, encoding: str) -> dict[str, Any]:
    specs = visible_tools(writes=True, has_root=True, workspace_mode=True, profile=profile)
    server = build_server({}, specs, Metrics(), 30.0, compact=profile == "compact")
    async with create_connected_server_and_client_session(server) as client:
        listed = await client.list_tools()
    tokens, size = wire_tokens(listed, encoding)
    return {"profile": profile, "tools": len(listed.tools), "tokens": tokens, "bytes": size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoding", default="o200k_base", choices=["o200k_base", "cl100k_base"])
    args = parser.parse_args()
    for profile in ("full", "compact"):
        print(json.dumps(asyncio.run(measure(profile, args.encoding))))


if __name__ == "__main__":
    main()
