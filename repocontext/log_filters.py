"""Log hygiene for the CLI's handlers: a client that goes away is not a server error.

The MCP SDK logs `Error in standalone SSE writer` (and its siblings) with a traceback at ERROR
whenever an HTTP client closes its event stream, which every SDK client does on exit. An
operator reading that log learns nothing and starts looking for a bug. Those records are
dropped, or kept as one DEBUG line without the traceback under `--verbose`.
"""

from __future__ import annotations

import logging

import anyio

# What a peer closing its end looks like from inside the server.
_DISCONNECTS: tuple[type[BaseException], ...] = (
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    ConnectionResetError,
    BrokenPipeError,
)
try:  # starlette is the SDK's HTTP layer; a missing one only means fewer cases to recognise
    from starlette.requests import ClientDisconnect

    _DISCONNECTS = (*_DISCONNECTS, ClientDisconnect)
except ImportError:  # pragma: no cover
    pass


def _is_disconnect(exc: BaseException | None) -> bool:
    seen = 0
    while exc is not None and seen < 8:  # the disconnect may be the cause of what was raised
        if isinstance(exc, _DISCONNECTS):
            return True
        if isinstance(exc, BaseExceptionGroup):
            return all(_is_disconnect(e) for e in exc.exceptions)
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class ClientDisconnectFilter(logging.Filter):
    """Drops SDK/transport records whose exception is a client disconnect (one DEBUG line
    instead when `verbose`)."""

    PREFIXES = ("mcp.", "sse_starlette", "uvicorn.error")

    def __init__(self, verbose: bool = False) -> None:
        super().__init__()
        self.verbose = verbose

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith(self.PREFIXES) or not record.exc_info:
            return True
        exc = record.exc_info[1]
        if not _is_disconnect(exc):
            return True
        if not self.verbose:
            return False
        record.msg = f"{record.getMessage()}: the client disconnected ({type(exc).__name__})"
        record.args = None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info, record.exc_text = None, None
        return True
