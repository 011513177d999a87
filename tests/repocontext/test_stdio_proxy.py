"""What an attached `mcp` tells the next owner when it takes over (repocontext/stdio_proxy.py):
the agent's own initialize, replayed under the proxy's id and its answer kept back, then the
agent's `initialized`; a request the old owner never answered gets an error, never a resend.
Real sockets (a socketpair), no MCP server: the new owner's side is played by the test."""

from __future__ import annotations

import asyncio
import io
import json
import socket
from pathlib import Path

import pytest

from repocontext.agent_socket import OwnerLink
from repocontext.stdio_proxy import OWNER_EXITED, REPLAY_ID, StdioProxy

pytestmark = pytest.mark.anyio
INIT: dict[str, object] = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "x"},
}
INITIALIZED: dict[str, object] = {"jsonrpc": "2.0", "method": "notifications/initialized"}
CALL: dict[str, object] = {
    "jsonrpc": "2.0",
    "id": 7,
    "method": "tools/call",
    "params": {"name": "remember"},
}


def line(message: dict[str, object]) -> bytes:
    return json.dumps(message).encode() + b"\n"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_new_owner_gets_the_handshake_and_lost_requests_an_error() -> None:
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    owner_reader, owner_writer = await asyncio.open_unix_connection(sock=theirs)

    async def unused() -> OwnerLink:
        raise AssertionError("not called here")

    proxy = StdioProxy(OwnerLink(reader, writer, {"pid": 2}), Path("/data"), unused)
    stdout = proxy.stdout = io.BytesIO()
    notes = proxy.notes
    for message in (INIT, INITIALIZED, CALL):  # what the agent sent the old owner
        notes.from_agent(line(message))
    notes.from_owner(line({"jsonrpc": "2.0", "id": 0, "result": {}}))  # initialize answered
    notes.from_owner(line({"jsonrpc": "2.0", "id": 9, "method": "roots/list"}))  # its request
    assert notes.waiting == {7: "tools/call"}  # the call the old owner never answered

    async def new_owner() -> list[dict[str, object]]:
        replayed = json.loads(await owner_reader.readline())
        owner_writer.write(line({"jsonrpc": "2.0", "method": "notifications/message"}))
        owner_writer.write(line({"jsonrpc": "2.0", "id": replayed["id"], "result": {}}))
        await owner_writer.drain()
        return [replayed, json.loads(await owner_reader.readline())]

    seen, _ = await asyncio.gather(new_owner(), proxy._resume())
    assert seen[0] == {**INIT, "id": REPLAY_ID} and seen[1] == INITIALIZED
    said = [json.loads(x) for x in stdout.getvalue().splitlines()]
    assert len(said) == 1  # neither the replay's answer nor what came before it
    assert said[0]["id"] == 7 and said[0]["error"]["code"] == OWNER_EXITED
    assert "may or may not have run" in said[0]["error"]["message"]
    assert notes.waiting == {}
    for w in (writer, owner_writer):
        w.close()


async def test_a_request_the_old_owner_never_received_goes_to_the_new_one() -> None:
    """The owner was killed, then the agent called before the proxy read the owner's end of
    file: the socket refused the line, so the call never ran, and it was answered 'exited
    before answering ... retry it'. It now goes to the new owner as sent."""
    new_ours, new_theirs = socket.socketpair()
    owner_reader, owner_writer = await asyncio.open_unix_connection(sock=new_theirs)
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    # the old owner is gone before the agent's call reaches it; nothing below yields to the
    # event loop before serve(), so the proxy writes the call before it reads the end of file
    theirs.close()

    async def take_over() -> OwnerLink:
        new_reader, new_writer = await asyncio.open_unix_connection(sock=new_ours)
        return OwnerLink(new_reader, new_writer, {"pid": 3})

    proxy = StdioProxy(OwnerLink(reader, writer, {"pid": 2}), Path("/data"), take_over)
    stdout = proxy.stdout = io.BytesIO()
    for message in (INIT, INITIALIZED):  # the handshake the old owner answered
        proxy.notes.from_agent(line(message))
    proxy.notes.from_owner(line({"jsonrpc": "2.0", "id": 0, "result": {}}))
    for queued in (line(CALL), None):  # the agent's call, then its end of input
        await proxy.lines.put(queued)
    answer = {"jsonrpc": "2.0", "id": 7, "result": {"ok": True}}

    async def new_owner() -> list[dict[str, object]]:
        replayed = json.loads(await owner_reader.readline())
        owner_writer.write(line({"jsonrpc": "2.0", "id": replayed["id"], "result": {}}))
        await owner_writer.drain()
        seen = [json.loads(await owner_reader.readline()) for _ in range(2)]
        owner_writer.write(line(answer))
        await owner_writer.drain()
        assert await owner_reader.readline() == b""  # the agent's end of input came through
        owner_writer.close()
        return seen

    seen, served = await asyncio.wait_for(asyncio.gather(new_owner(), proxy.serve()), 60)
    assert seen == [INITIALIZED, CALL] and served is True
    assert [json.loads(x) for x in stdout.getvalue().splitlines()] == [answer]
