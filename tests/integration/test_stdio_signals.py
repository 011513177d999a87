"""`repocontext mcp` stops on SIGTERM (exit 0) and Ctrl-C (exit 130) while the agent still
holds its stdin open. A QA pass: both were ignored until the agent closed stdin, since the
MCP SDK read stdin in a worker thread no cancellation reaches."""

from __future__ import annotations

import json
import select
import signal
from pathlib import Path

import pytest

from tests.integration.mcp_helpers import mcp_process
from tests.integration.test_http_limits import INITIALIZE

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_a_signal_stops_the_stdio_server_while_stdin_is_open(
    sample_repo: Path, tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    proc = mcp_process(sample_repo, tmp_path / "data")
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready and b'"id":1' in proc.stdout.readline()
        proc.send_signal(sig)
        assert proc.wait(timeout=30) == code  # stdin is still open
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        assert "Traceback" not in stderr, stderr[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
