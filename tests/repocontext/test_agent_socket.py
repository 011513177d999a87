"""Attaching to a data directory's owner that dies as we connect (repocontext/agent_socket.py):
its listening socket can outlive it by an instant, so the connection is accepted and then
reset. That is "nobody to attach to" (the caller waits for the lock), not an error: an `mcp`
taking over from a SIGKILLed owner failed with `Connection reset by peer` in a QA run."""

from __future__ import annotations

import select
import socket
import threading
from pathlib import Path

import pytest

from repocontext.agent_socket import Hello, attach, socket_path

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_an_owner_resetting_the_connection_is_nobody_to_attach_to(tmp_path: Path) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(socket_path(tmp_path)))
    listener.listen()

    def die_on_hello() -> None:  # the hello arrives, unread: closing resets the connection
        conn, _ = listener.accept()
        select.select([conn], [], [], 30)
        conn.close()

    dying = threading.Thread(target=die_on_hello)
    dying.start()
    try:
        assert await attach(tmp_path, Hello("mcp")) is None
    finally:
        dying.join(timeout=30)
        listener.close()
