"""A tool call whose HTTP client goes away before its answer is a cancelled call.

Over streamable HTTP the SDK runs a request in the session's task group, apart from the
connection that carried it: when the client vanishes, the call runs on to its end. For most
tools that only wastes the work, but a claim waiting in the queue stays first in line, and is
granted the lock when the holder releases it, for a caller that will never see its token (a
QA pass: a killed client's claim held the lock for its whole 600 s lease). Stdio and a closed
session already cancel the call (claims.py withdraws a cancelled claim), so a POST whose
connection closes before its answer sends the session what a client that stops waiting
sends: `notifications/cancelled` for the request's id.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.types import Message, Receive, Scope, Send

DISCONNECT: Message = {"type": "http.disconnect"}


def request_ids(body: bytes) -> list[int | str]:
    """The ids of the JSON-RPC requests in a POST body (none for notifications/responses)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return []
    messages = parsed if isinstance(parsed, list) else [parsed]
    return [
        m["id"]
        for m in messages
        if isinstance(m, dict)
        and isinstance(m.get("method"), str)
        and isinstance(m.get("id"), int | str)
        and not isinstance(m.get("id"), bool)
    ]


class _Watched:
    """The request's channel shared between the app and a watcher: the app is given the body
    once, then waits for the disconnect the watcher reads from the real channel."""

    def __init__(self, body: bytes, receive: Receive) -> None:
        self.body: bytes | None = body
        self.real = receive
        self.gone = anyio.Event()
        self.answered = False

    async def receive(self) -> Message:
        if self.body is not None:
            body, self.body = self.body, None
            return {"type": "http.request", "body": body, "more_body": False}
        await self.gone.wait()
        return DISCONNECT

    async def watch(self) -> None:
        while (await self.real())["type"] != "http.disconnect":
            pass  # a body is read already: nothing else is expected but the disconnect
        self.gone.set()

    def sending(self, send: Send) -> Send:
        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body"):
                self.answered = True
            await send(message)

        return tracked


async def answer_or_cancel(
    handle: Any, scope: Scope, body: bytes, receive: Receive, send: Send, ids: list[int | str]
) -> None:
    """`handle(scope, receive, send)` for a POST holding requests `ids`; if its connection
    closes before the answer is sent, each request is cancelled in its session."""
    watched = _Watched(body, receive)

    async def watch_then_cancel() -> None:
        await watched.watch()
        if not watched.answered:
            for request_id in ids:
                await _cancel(handle, scope, request_id)

    async with anyio.create_task_group() as group:
        group.start_soon(watch_then_cancel)
        await handle(scope, watched.receive, watched.sending(send))
        group.cancel_scope.cancel()


async def _cancel(handle: Any, scope: Scope, request_id: int | str) -> None:
    """POST `notifications/cancelled` for `request_id` into the request's session, with the
    request's own headers (session id, protocol version, accept, origin)."""
    note = {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": request_id, "reason": "the client disconnected"},
    }
    body = json.dumps(note).encode()
    headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
    headers.append((b"content-length", str(len(body)).encode()))
    sent = False

    async def once() -> Message:
        nonlocal sent
        if sent:
            return DISCONNECT
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def discard(message: Message) -> None:
        return None

    await handle({**scope, "headers": headers}, once, discard)
