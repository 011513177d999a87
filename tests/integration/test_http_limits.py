"""What one caller may hold over HTTP: in-flight slots, body deadline, sessions; and the
latency buckets of /metrics. Real server, real sockets."""

from __future__ import annotations

import json
import re
import select
import socket
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import ServeProcess, write_sample_repo
from tests.integration.mcp_helpers import wait_for

pytestmark = pytest.mark.anyio

GREEDY, POLITE, ADMIN = "greedy-token-5d1a", "polite-token-0b7e", "admin-token-c3f9"
ACCEPT = "application/json, text/event-stream"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "limits-test", "version": "1"},
    },
}


def token_file(path: Path) -> Path:
    entries = [
        {"principal": "greedy", "token": GREEDY, "grants": {"sample": ["read"]}},
        {"principal": "polite", "token": POLITE, "grants": {"sample": ["read"]}},
        {"principal": "admin", "token": ADMIN, "grants": {"*": ["admin"]}},
    ]
    path.write_text(json.dumps({"tokens": entries}))
    return path


def serve(tmp_path: Path, **env: str) -> ServeProcess:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    auth = token_file(tmp_path / "tokens.json")
    return ServeProcess(repo, tmp_path / "data", env={"REPOCONTEXT_AUTH_FILE": str(auth), **env})


def slow_request(port: int, token: str) -> socket.socket:
    """A POST that announces 100000 body bytes and sends one."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(
        (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nAccept: {ACCEPT}\r\n"
            "Content-Length: 100000\r\n\r\n{"
        ).encode()
    )
    return sock


def status_of(sock: socket.socket) -> int:
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError(f"connection closed without a status line: {head!r}")
        head += chunk
    return int(head.split(b" ", 2)[1])


def answered(socks: list[socket.socket], wait_s: float) -> list[socket.socket]:
    readable, _, _ = select.select(socks, [], [], wait_s)
    return list(readable)


async def served(base: str, token: str) -> dict[str, object]:
    """initialize + list_repos with a fresh client: a caller that is being served."""
    headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
        opened = await client.post("/mcp", json=INITIALIZE)
        assert opened.status_code == 200, opened.text
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await client.post("/mcp", json=note, headers=session)).status_code == 202
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "repocontext_list_repos", "arguments": {}},
        }
        answer = await client.post("/mcp", json=call, headers=session)
        assert answer.status_code == 200, answer.text
        assert '"repoId' in answer.text
        return {"status": answer.status_code}


@pytest.mark.slow
async def test_one_tokens_slow_bodies_leave_others_served(tmp_path: Path) -> None:
    server = serve(
        tmp_path,
        REPOCONTEXT_MAX_INFLIGHT_REQUESTS="6",
        REPOCONTEXT_MAX_INFLIGHT_PER_PRINCIPAL="3",
        REPOCONTEXT_REQUEST_BODY_TIMEOUT_S="8",
    )
    socks: list[socket.socket] = []
    try:
        socks = [slow_request(server.port, GREEDY) for _ in range(20)]
        # 3 hold greedy's slots; the other 17 are refused at once with 429 (not queued)
        refused: dict[socket.socket, int] = {}
        deadline = time.monotonic() + 30
        while len(refused) < 17 and time.monotonic() < deadline:
            for sock in answered([s for s in socks if s not in refused], 0.2):
                refused[sock] = status_of(sock)
        assert sorted(refused.values()) == [429] * 17, refused.values()
        held = [s for s in socks if s not in refused]

        await served(server.base, POLITE)
        await served(server.base, ADMIN)
        assert answered(held, 0) == []  # greedy's slots were held all along

        # the body deadline ends greedy's slow requests with 408
        statuses = []
        for sock in held:
            assert answered([sock], 30), "the slow body was never cut off"
            statuses.append(status_of(sock))
        assert statuses == [408, 408, 408]
    finally:
        for sock in socks:
            sock.close()
        server.stop()


async def test_without_a_token_file_only_the_global_session_cap_applies(tmp_path: Path) -> None:
    """Without a token file every caller is the same local user: a team of agents on one
    machine is held to MAX_SESSIONS, not to one token's MAX_SESSIONS_PER_PRINCIPAL (a QA
    pass: the 65th local agent got 429 "this token already has 64 open MCP sessions")."""
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    server = ServeProcess(
        repo,
        tmp_path / "data",
        env={"REPOCONTEXT_MAX_SESSIONS_PER_PRINCIPAL": "2", "REPOCONTEXT_MAX_SESSIONS": "4"},
    )
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
            statuses = []
            for _ in range(5):
                response = await client.post("/mcp", json=INITIALIZE, headers={"Accept": ACCEPT})
                statuses.append(response.status_code)
            assert statuses == [200, 200, 200, 200, 503], statuses
    finally:
        server.stop()


@pytest.mark.slow
async def test_sessions_are_capped_per_token_and_idle_ones_reaped(tmp_path: Path) -> None:
    server = serve(
        tmp_path,
        REPOCONTEXT_MAX_SESSIONS_PER_PRINCIPAL="3",
        REPOCONTEXT_SESSION_IDLE_TIMEOUT_S="4",
    )
    greedy = {"Authorization": f"Bearer {GREEDY}", "Accept": ACCEPT}
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
            opened = []
            for _ in range(3):
                response = await client.post("/mcp", json=INITIALIZE, headers=greedy)
                assert response.status_code == 200, response.text
                opened.append(response.headers["mcp-session-id"])
            fourth = await client.post("/mcp", json=INITIALIZE, headers=greedy)
            assert fourth.status_code == 429 and "3 open MCP sessions" in fourth.text
            await served(server.base, POLITE)  # another token is not held to greedy's cap

            # a session id is usable only by the token that opened it
            ping = {"jsonrpc": "2.0", "id": 9, "method": "ping"}
            stolen = await client.post(
                "/mcp",
                json=ping,
                headers={
                    "Authorization": f"Bearer {POLITE}",
                    "Accept": ACCEPT,
                    "mcp-session-id": opened[0],
                },
            )
            assert stolen.status_code == 404

            reopened: list[str] = []

            async def room_again() -> bool:  # probing the old sessions would keep them alive
                again = await client.post("/mcp", json=INITIALIZE, headers=greedy)
                if again.status_code == 200:
                    reopened.append(again.headers["mcp-session-id"])
                return len(reopened) == 3  # within the cap of 3: every old one was reaped

            await wait_for(room_again, 60, "the idle sessions to be reaped")
            for session in opened:
                probe = await client.post(
                    "/mcp", json=ping, headers={**greedy, "mcp-session-id": session}
                )
                assert probe.status_code == 404
    finally:
        server.stop()


BUCKET = re.compile(r'repocontext_retrieval_duration_seconds_bucket\{le="([^"]+)",[^}]*\} (\S+)')


@pytest.mark.slow  # calls spread over the latency buckets
async def test_call_durations_use_latency_buckets(tmp_path: Path) -> None:
    """Buckets from 1 ms to a minute, so a millisecond call is told from a slow one."""
    server = serve(tmp_path)
    try:
        await served(server.base, ADMIN)
        text = httpx.get(server.base + "/metrics").text
        lines = [
            line
            for line in text.splitlines()
            if 'tool="repocontext_list_repos"' in line and "_bucket{" in line
        ]
        bounds = [m.group(1) for line in lines if (m := BUCKET.match(line))]
        assert bounds[:3] == ["0.001", "0.0025", "0.005"]
        assert {"0.1", "1.0", "10.0", "60.0", "+Inf"} <= set(bounds)
        counts = [float(m.group(2)) for line in lines if (m := BUCKET.match(line))]
        assert counts == sorted(counts) and counts[-1] >= 1  # cumulative, the call is counted
    finally:
        server.stop()


async def test_a_body_nested_too_deep_is_refused_and_the_server_serves_on(tmp_path: Path) -> None:
    """A QA pass: a request nested 200,000 levels (a 400 KB body) got HTTP 500 and a
    RecursionError traceback from the SDK's parser; it is refused before the parser runs."""
    server = serve(tmp_path)
    headers = {"Authorization": f"Bearer {POLITE}", "Accept": ACCEPT}
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
            deep = b"[" * 200_000 + b"]" * 200_000
            refused = await client.post(
                "/mcp", content=deep, headers={**headers, "Content-Type": "application/json"}
            )
            assert refused.status_code == 400 and "too_deep" in refused.text, refused.text
            await served(server.base, POLITE)
    finally:
        server.stop()
    assert "RecursionError" not in server.log_path.read_text(errors="replace")
