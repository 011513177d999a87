"""Log hygiene for the CLI's handlers: a client that goes away is not a server error.

The MCP SDK logs `Error in standalone SSE writer` (and its siblings) with a traceback at ERROR
whenever an HTTP client closes its event stream, which every SDK client does on exit. An
operator reading that log learns nothing and starts looking for a bug. Those records are
dropped, or kept as one DEBUG line without the traceback under `--verbose`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

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


class RepeatFilter(logging.Filter):
    """At most one record per (logger, message template) per `window_s` from the Kafka client
    libraries, with the count of those left out on the next one let through.

    While a broker is away aiokafka (and faust above it) log the same failure on every retry,
    tens of times a second: an outage of minutes buried the log in tens of thousands of ERROR
    lines. Our own code logs such states once per change (streams/runtime/log_contact.py);
    this caps what the libraries say about them. Records of other loggers pass untouched."""

    PREFIXES = ("aiokafka", "kafka", "faust", "mode")
    MAX_KEYS = 512  # templates remembered; the oldest go first

    def __init__(self, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.window_s = window_s
        self._clock = clock
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or not record.name.startswith(self.PREFIXES):
            return True
        key = (record.name, str(record.msg))
        now = self._clock()
        first, left_out = self._seen.get(key, (None, 0))
        if first is not None and now - first < self.window_s:
            self._seen[key] = (first, left_out + 1)
            return False
        self._seen.pop(key, None)
        self._seen[key] = (now, 0)
        while len(self._seen) > self.MAX_KEYS:
            self._seen.pop(next(iter(self._seen)))
        if left_out:
            record.msg = f"{record.getMessage()} ({left_out} more like it in {self.window_s:.0f} s)"
            record.args = None
        return True
