"""The README's stdio snippet (`mcp .`) in two projects at once, with no data directory
named: each project gets its own. A QA pass: both met at one default directory, whose owner's
workspace held only the first project, and the second agent's server exited at start
("path ... is outside the workspace root")."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import cli_command
from tests.integration.mcp_helpers import call, wait_for

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@contextlib.asynccontextmanager
async def agent_in(project: Path, cache: Path) -> AsyncIterator[ClientSession]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOCONTEXT_")}
    env |= {"XDG_CACHE_HOME": str(cache), "REPOCONTEXT_EMBEDDER": "none"}
    command = cli_command("mcp", ".")
    params = StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=str(project))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def test_agents_in_two_projects_each_serve_their_own(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    projects = {"alpha": "def alpha_only_marker():\n    pass\n", "beta": "BETA_ONLY = 1\n"}
    for name, body in projects.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.py").write_text(body)
    async with (
        agent_in(tmp_path / "alpha", cache) as alpha,
        agent_in(tmp_path / "beta", cache) as beta,
    ):
        for session, name, query in (
            (alpha, "alpha", "alpha_only_marker"),
            (beta, "beta", "BETA_ONLY"),
        ):

            async def found(
                session: ClientSession = session, name: str = name, query: str = query
            ) -> bool:
                result = await call(session, "repocontext_search", {"repoId": name, "query": query})
                return [h["entry"]["path"] for h in result["hits"]][:1] == [f"{name}.py"]

            await wait_for(found, 60, f"{name} to be searchable from its own agent")
    dirs = sorted(p.name.split("-")[0] for p in (cache / "repocontext" / "workspaces").iterdir())
    assert dirs == ["alpha", "beta"]
