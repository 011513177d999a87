"""`repocontext serve`: MCP over streamable HTTP, health and metrics on one listener."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.conftest import ServeProcess
from tests.integration.mcp_helpers import call, call_error, http_session, wait_indexed

pytestmark = pytest.mark.anyio


async def test_mcp_over_http_with_health_and_metrics(serve_process: ServeProcess) -> None:
    base = serve_process.base
    assert httpx.get(base + "/health/live").json() == {"status": "live"}

    async with http_session(base) as session:
        tools = {t.name for t in (await session.list_tools()).tools}
        assert "repocontext_search" in tools and "repocontext_add_repo" in tools
        await wait_indexed(session, "sample")
        result = await call(
            session, "repocontext_search", {"repoId": "sample", "query": "compute total"}
        )
        assert result["hits"][0]["entry"]["path"] == "src/billing/invoice.py"
        text = await call_error(session, "repocontext_search", {"repoId": "sample", "k": 3})
        assert "`query`" in text

    ready = httpx.get(base + "/health/ready")
    assert ready.status_code == 200
    body = ready.json()
    assert body["ready"] is True and body["components"]["retrieval"] == "keyword_only"
    assert body["freshness"]["eventsBehind"] >= 0

    metrics = httpx.get(base + "/metrics")
    assert metrics.status_code == 200
    assert "repocontext_calls" in metrics.text
    assert 'tool="repocontext_search"' in metrics.text


async def test_foreign_host_header_is_refused(serve_process: ServeProcess) -> None:
    """DNS-rebinding protection on a loopback listener."""
    response = httpx.post(
        serve_process.base + "/mcp",
        headers={"Host": "evil.example", "Content-Type": "application/json"},
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    )
    assert response.status_code in (400, 403, 421)


def test_non_loopback_bind_without_auth_is_refused(sample_repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess

    from tests.conftest import child_env, cli_command

    proc = subprocess.run(
        cli_command("serve", str(sample_repo), "--host", "0.0.0.0", "--port", "1"),
        env=child_env(tmp_path / "data"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "refusing to serve" in proc.stderr


def test_sigterm_shuts_down_cleanly(sample_repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """SIGTERM stops serving, closes the app (workers reaped) and exits 0 within a bound;
    the log says when the index was complete and that the server stopped (a QA pass read
    nothing after "serving MCP at" until the shell prompt)."""
    server = ServeProcess(sample_repo, tmp_path / "data")
    deadline = time.monotonic() + 60
    while "index of sample complete: " not in server.log_path.read_text():
        assert time.monotonic() < deadline, server.log_path.read_text()[-2000:]
        time.sleep(0.1)
    server.proc.terminate()
    assert server.proc.wait(timeout=30) == 0
    server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log and "leaked semaphore" not in log
    assert log.rstrip().splitlines()[-1].endswith(f"stopped; {tmp_path / 'data'} closed cleanly")
