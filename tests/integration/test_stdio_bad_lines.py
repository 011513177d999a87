"""A line on `repocontext mcp`'s stdin that is no JSON-RPC message gets the JSON-RPC error
answer at once (repocontext/line_transport.py): the SDK's transport answered it with a log
notification, and a client whose request had a typo waited out its own timeout. The session
goes on answering well-formed requests after it, and an attached agent (a second `mcp` on the
same data directory, served through the first) gets the same answers."""

from __future__ import annotations

import json
import select
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from repocontext.line_transport import INVALID_REQUEST, PARSE_ERROR, read_message
from tests.integration.mcp_helpers import mcp_process
from tests.integration.test_http_limits import INITIALIZE

pytestmark = pytest.mark.slow


def answer(stdout: IO[bytes]) -> dict[str, Any]:
    ready, _, _ = select.select([stdout], [], [], 60)
    assert ready, "no answer within 60 s"
    message = json.loads(stdout.readline())
    assert isinstance(message, dict)
    return message


def send(stdin: IO[bytes], line: bytes) -> None:
    stdin.write(line + b"\n")
    stdin.flush()


@pytest.fixture
def start_mcp(sample_repo: Path, tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """Starts `repocontext mcp` on one data directory and initialises it: the first owns it,
    a later one is attached to the first."""
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        proc = mcp_process(sample_repo, tmp_path / "data", stderr=subprocess.DEVNULL)
        procs.append(proc)
        assert proc.stdin is not None and proc.stdout is not None
        send(proc.stdin, json.dumps(INITIALIZE).encode())
        assert answer(proc.stdout)["id"] == 1
        send(proc.stdin, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        return proc

    yield start
    for proc in procs:
        proc.kill()
        proc.wait()


def check_bad_lines(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    send(proc.stdin, b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"')  # cut short
    got = answer(proc.stdout)
    assert got["id"] is None and got["error"]["code"] == PARSE_ERROR
    assert "not JSON" in got["error"]["message"]

    send(proc.stdin, b'{"jsonrpc": "1.0", "id": "q-8", "method": "tools/list"}')
    got = answer(proc.stdout)
    assert got["id"] == "q-8" and got["error"]["code"] == INVALID_REQUEST

    send(proc.stdin, b"")  # a blank line is skipped, not answered
    send(proc.stdin, b'[{"jsonrpc": "2.0", "id": 9, "method": "tools/list"}]')  # a batch
    got = answer(proc.stdout)
    assert got["id"] is None and got["error"]["code"] == INVALID_REQUEST

    send(proc.stdin, b'{"jsonrpc": "2.0", "id": 10, "method": "tools/list"}')
    got = answer(proc.stdout)
    assert got["id"] == 10 and got["result"]["tools"]


def test_bad_lines_get_json_rpc_errors_and_the_session_goes_on(
    start_mcp: Callable[[], subprocess.Popen[bytes]],
) -> None:
    owner = start_mcp()
    check_bad_lines(owner)  # the process that owns the data directory
    check_bad_lines(start_mcp())  # an agent attached to it, served through the owner


def test_a_blank_line_reads_as_nothing_and_a_bad_id_as_null() -> None:
    assert read_message(b"  \n") is None
    line = read_message(b'{"jsonrpc": "2.0", "id": true, "method": 1}')
    assert isinstance(line, bytes)
    assert json.loads(line)["id"] is None
