"""MCP's stdio framing (one JSON-RPC message a line) over asyncio streams, answering a line
that is no message.

The SDK's stdio transport hands a line it cannot read to the session as an exception, and the
session answers with a log notification ("Internal Server Error"): the caller that sent a
request with a typo waited out its own timeout, never told why. Here such a line gets the
JSON-RPC 2.0 error answer at once: -32700 (parse error) for a line that is not JSON, -32600
(invalid request) for JSON that is no MCP message, with the line's `id` where it has a usable
one and null where it has none. Blank lines are skipped. Used for the process's own stdin and
stdout (repocontext/stdio_lines.py) and for each attached agent's socket
(repocontext/agent_socket.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp.types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
DETAIL_CHARS = 200  # of the reader's complaint, in the error's message


def read_message(line: bytes | str) -> SessionMessage | bytes | None:
    """The message a line holds; else the error line to answer it with; None for a blank."""
    if not line.strip():
        return None
    try:
        return SessionMessage(types.JSONRPCMessage.model_validate_json(line))
    except ValidationError as exc:
        return error_line(line, exc)


def error_line(line: bytes | str, exc: ValidationError) -> bytes:
    """The JSON-RPC error answer to a line that is no message (module doc)."""
    try:
        parsed: Any = json.loads(line)
    except ValueError as bad:
        code, message, ident = PARSE_ERROR, f"Parse error: the line is not JSON ({bad})", None
    else:
        ident = parsed.get("id") if isinstance(parsed, dict) else None
        if isinstance(ident, bool) or not isinstance(ident, str | int):
            ident = None
        first = exc.errors()[0]["msg"] if exc.errors() else str(exc)
        code = INVALID_REQUEST
        message = f"Invalid Request: not a JSON-RPC 2.0 request or notification ({first})"
    error = {"code": code, "message": message[: DETAIL_CHARS + 80]}
    answer = {"jsonrpc": "2.0", "id": ident, "error": error}
    return json.dumps(answer, ensure_ascii=False).encode() + b"\n"


@contextlib.asynccontextmanager
async def line_transport(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> AsyncIterator[tuple[Any, Any]]:
    """(read, write) streams for `Server.run` over `reader` and `writer`."""
    incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](0)

    async def read_lines() -> None:
        async with incoming_send:
            while line := await reader.readline():
                read = read_message(line)
                if isinstance(read, SessionMessage):
                    await incoming_send.send(read)
                elif read is not None:  # one write call: never inside another answer's line
                    writer.write(read)
                    await writer.drain()

    async def write_lines() -> None:
        async with outgoing_receive:
            async for item in outgoing_receive:
                text = item.message.model_dump_json(by_alias=True, exclude_none=True)
                writer.write(text.encode() + b"\n")
                await writer.drain()

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        writing = asyncio.ensure_future(write_lines())
        try:
            yield incoming, outgoing
        finally:
            await outgoing.aclose()  # the writer drains what the session sent, then stops
            with contextlib.suppress(Exception):
                await writing
            group.cancel_scope.cancel()
