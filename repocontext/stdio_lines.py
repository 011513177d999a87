"""This process's stdin and stdout as MCP's stdio transport, read and written on the event loop.

The SDK reads stdin through anyio's file wrapper, in a worker thread; a thread blocked in that
read cannot be cancelled, so SIGTERM or Ctrl-C left `repocontext mcp` running (silently) until
the agent closed its stdin. Read on the loop, the read ends with the session's cancellation
and the app closes (log flushed, workers reaped) as for `serve`. Where both are pipes (an
agent's child process) they speak repocontext/line_transport.py, which answers a line that is
no JSON-RPC message; where they are not (a regular file), the SDK's own transport serves,
reading `StdinLines` where stdin is still readable on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from typing import Any

from repocontext.agent_socket import MAX_LINE
from repocontext.line_transport import line_transport


class StdinLines:
    """`async for line in StdinLines(reader)`: what the SDK's stdio_server iterates."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        line = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


async def stdin_reader() -> asyncio.StreamReader:
    """stdin read on the event loop (OSError or ValueError where it is no pipe)."""
    reader = asyncio.StreamReader(limit=MAX_LINE)
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def stdout_writer() -> asyncio.StreamWriter:
    """stdout written on the event loop (OSError or ValueError where it is no pipe)."""
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, sys.stdout
    )
    return asyncio.StreamWriter(transport, protocol, None, loop)


@contextlib.asynccontextmanager
async def stdio_transport() -> AsyncIterator[tuple[Any, Any]]:
    """(read, write) streams for `Server.run` over this process's stdin and stdout."""
    try:
        reader: asyncio.StreamReader | None = await stdin_reader()
    except (OSError, ValueError):
        reader = None
    try:
        writer = await stdout_writer() if reader is not None else None
    except (OSError, ValueError):
        writer = None
    if reader is not None and writer is not None:
        async with line_transport(reader, writer) as streams:
            yield streams
        return
    from mcp.server.stdio import stdio_server

    lines = StdinLines(reader) if reader is not None else None
    async with stdio_server(stdin=lines) as streams:  # type: ignore[arg-type]
        yield streams
