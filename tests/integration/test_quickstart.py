"""The README's agent snippets, parsed from the README and launched as written."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import ROOT, ServeProcess
from tests.integration.mcp_helpers import call, http_session

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.slow,  # each test launches the documented server command
]


def snippet(name: str) -> dict[str, Any]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- snippet:{name} -->\s*```json\n(.*?)```", readme, re.S)
    assert found, f"README has no {name} snippet"
    config: dict[str, Any] = json.loads(found.group(1))["mcpServers"]["repocontext"]
    return config


async def test_stdio_snippet_launches_a_working_server(sample_repo: Path, tmp_path: Path) -> None:
    config = snippet("stdio")
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["REPOCONTEXT_DATA_DIR"] = str(tmp_path / "data")
    params = StdioServerParameters(
        command=config["command"], args=config["args"], env=env, cwd=str(sample_repo)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        refreshed = await call(session, "repocontext_refresh", {"repoId": "sample"})
        assert refreshed["searchable"] is True
        hits = await call(
            session, "repocontext_search", {"repoId": "sample", "query": "InvoiceCalculator"}
        )
        assert hits["hits"][0]["entry"]["path"] == "src/billing/invoice.py"


async def test_http_snippet_reaches_serve(sample_repo: Path, tmp_path: Path) -> None:
    config = snippet("http")
    assert config["type"] == "http" and config["url"] == "http://127.0.0.1:8080/mcp"
    server = ServeProcess(sample_repo, tmp_path / "data")  # on a free port, not 8080
    try:
        url = config["url"].replace(":8080", f":{server.port}").removesuffix("/mcp")
        async with http_session(url) as session:
            health = await call(session, "repocontext_health", {})
            assert health["available"] is True
    finally:
        server.stop()
