"""This process's stdin as lines read on the event loop, for the MCP SDK's stdio transport.

The SDK reads stdin through anyio's file wrapper, in a worker thread; a thread blocked in that
read cannot be cancelled, so SIGTERM or Ctrl-C left `repocontext mcp` running (silently) until
the agent closed its stdin. Read on the loop, the read ends with the session's cancellation
and the app closes (log flushed, workers reaped) as for `serve`.
"""

from __future__ import annotations

import asyncio
import sys

from repocontext.agent_socket import MAX_LINE


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


async def stdin_lines() -> StdinLines | None:
    """stdin on the event loop, or None where it cannot be (a regular file, not a pipe: the
    SDK's own reader serves it then)."""
    try:
        return StdinLines(await stdin_reader())
    except (OSError, ValueError):
        return None
