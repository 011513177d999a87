"""Bearer-token access control over HTTP: fail closed, per-repository grants, one gate."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import ServeProcess, write_sample_repo
from tests.integration.mcp_helpers import call, call_error, http_session, wait_for

pytestmark = pytest.mark.anyio

READER, ADMIN, OTHER = "reader-token-7c1f", "admin-token-92ab", "other-token-3e55"


def token_file(path: Path) -> Path:
    path.write_text(
        json.dumps(
            {
                "tokens": [
                    {"principal": "reader", "token": READER, "grants": {"sample": ["read"]}},
                    {
                        "principal": "admin",
                        "sha256": hashlib.sha256(ADMIN.encode()).hexdigest(),
                        "grants": {"*": ["admin"]},
                    },
                    {"principal": "other", "token": OTHER, "grants": {"elsewhere": ["read"]}},
                ]
            }
        )
    )
    return path


async def tools_as(base: str, token: str) -> set[str]:
    async with http_session(base, token) as session:
        return {t.name for t in (await session.list_tools()).tools}


@pytest.mark.slow  # servers under several token files
async def test_grants_shape_discovery_and_calls(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    write_sample_repo(workspace / "sample")
    write_sample_repo(workspace / "secret")
    auth = token_file(tmp_path / "tokens.json")
    server = ServeProcess(
        workspace / "sample",
        tmp_path / "data",
        "--workspace-root",
        str(workspace),
        env={"REPOCONTEXT_AUTH_FILE": str(auth)},
    )
    try:
        # unauthenticated or wrong token: refused before MCP, so zero tools and no calls
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"}):
            response = httpx.post(
                server.base + "/mcp",
                headers={**headers, "Accept": "application/json, text/event-stream"},
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            )
            assert response.status_code == 401
            assert READER not in response.text and ADMIN not in response.text

        reader_tools = await tools_as(server.base, READER)
        assert "repocontext_search" in reader_tools
        assert not reader_tools & {
            "repocontext_add_repo",
            "repocontext_remove_repo",
            "repocontext_reset_index",
        }
        admin_tools = await tools_as(server.base, ADMIN)
        assert {"repocontext_add_repo", "repocontext_reset_index"} <= admin_tools

        admin = httpx.AsyncClient(headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30)
        reader = httpx.AsyncClient(headers={"Authorization": f"Bearer {READER}"}, timeout=30)
        async with (
            admin,
            streamable_http_client(server.base + "/mcp", http_client=admin) as (ar, aw, _),
            ClientSession(ar, aw) as as_admin,
            reader,
            streamable_http_client(server.base + "/mcp", http_client=reader) as (rr, rw, _),
            ClientSession(rr, rw) as as_reader,
        ):
            await as_admin.initialize()
            await as_reader.initialize()
            await call(as_admin, "repocontext_add_repo", {"path": str(workspace / "secret")})

            async def both_listed() -> bool:
                repos = await call(as_admin, "repocontext_list_repos", {})
                return bool(repos["count"] == 2)

            await wait_for(both_listed, what="both repositories to be listed for the admin")
            seen = await call(as_reader, "repocontext_list_repos", {})
            assert [r["repoId"] for r in seen["repositories"]] == ["sample"]
            await call(as_reader, "repocontext_search", {"repoId": "sample", "query": "ledger"})
            text = await call_error(
                as_reader, "repocontext_search", {"repoId": "secret", "query": "ledger"}
            )
            assert "'read' grant on repository 'secret'" in text
            text = await call_error(as_reader, "repocontext_reset_index", {"repoId": "sample"})
            assert "unknown tool" in text  # not listed, so not callable: no list-then-deny gap

        other_tools = await tools_as(server.base, OTHER)
        assert "repocontext_search" in other_tools  # it may read *some* repository
        log = server.log_path.read_text()
        assert READER not in log and ADMIN not in log and OTHER not in log
    finally:
        server.stop()


def test_non_loopback_with_tokens_may_start_but_malformed_file_refuses(tmp_path: Path) -> None:
    import subprocess

    from tests.conftest import child_env, cli_command

    bad = tmp_path / "bad.json"
    bad.write_text('{"tokens": [{"principal": "x", "grants": {"*": ["root"]}}]}')
    env = child_env(tmp_path / "data")
    env["REPOCONTEXT_AUTH_FILE"] = str(bad)
    repo = write_sample_repo(tmp_path / "repo")
    proc = subprocess.run(
        cli_command("serve", str(repo), "--port", "1"),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "malformed" in proc.stderr
