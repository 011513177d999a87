"""The `tools/list` answer's size in tokens, for each tool profile (issue 24 item 12).

    .venv/bin/python -m tests.bench.tools_list_tokens [--encoding o200k_base]

Workspace mode with writes and a workspace root (the defaults of `repocontext serve PATH` and
`repocontext mcp PATH`): the server is the real one (an EmbeddedApp's, over an empty workspace)
and the list is asked for by the MCP SDK's client over its in-memory transport. What is
counted is the JSON-RPC response the client received, compact and without nulls: what travels.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from mcp.shared.memory import create_connected_server_and_client_session

from processors.tokens import count_tokens
from query_api.settings import Settings
from repocontext.app import EmbeddedApp


def wire_tokens(result: Any, encoding: str) -> tuple[int, int]:
    """(tokens, bytes) of `result` as the JSON-RPC response that carries it."""
    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    text = json.dumps({"jsonrpc": "2.0", "id": 1, "result": dumped}, separators=(",", ":"))
    return count_tokens(text, encoding), len(text.encode())  # type: ignore[arg-type]


async def measure(profile: str, encoding: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "ws"
        workspace.mkdir()
        settings = Settings(data_dir=Path(tmp) / "data", workspace_root=workspace, embedder="none")
        async with (
            EmbeddedApp(settings, watch=False) as app,
            create_connected_server_and_client_session(app.mcp_server(profile=profile)) as client,
        ):
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
