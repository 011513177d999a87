"""Non-finite numbers in tool arguments survive until validation refuses them.

JSON-RPC text may carry `1e999`, `Infinity` or `NaN` (Python's and pydantic's parsers accept
them), but the MCP SDK re-validates every request after a JSON-mode dump, which turns them into
null: `ttlSeconds: 1e999` used to arrive as "no TTL" and made an entry that never expires.
The server's read stream is wrapped so that such a number reaches the tool's model as the
string "inf" / "-inf" / "nan", which a number field refuses by name (schemas/bounds.py).
"""

from __future__ import annotations

import math
from typing import Any

from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCRequest


def spelled_out(value: Any) -> Any:
    """`value` with every non-finite float replaced by its name, at any depth."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: spelled_out(v) for k, v in value.items()}
    if isinstance(value, list):
        return [spelled_out(v) for v in value]
    return value


def _marked(message: Any) -> Any:
    if isinstance(message, SessionMessage):
        root = message.message.root
        if isinstance(root, JSONRPCRequest) and isinstance(root.params, dict):
            root.params = spelled_out(root.params)
    return message


class SpelledOutNumbers:
    """A receive stream that hands on each message with non-finite numbers spelled out.
    The SDK's session only enters it, iterates it and closes it."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aenter__(self) -> SpelledOutNumbers:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)

    def __aiter__(self) -> SpelledOutNumbers:
        return self

    async def __anext__(self) -> Any:
        return _marked(await self._inner.__anext__())

    async def receive(self) -> Any:
        return _marked(await self._inner.receive())

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
