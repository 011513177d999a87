"""Serving the HTTP app: bind the listener first, say where it serves only then.

uvicorn binds inside `serve()`; a port in use or out of range surfaced there as its own
log line plus `sys.exit`, or as an OverflowError traceback, after we had already logged
"serving ...". Binding ourselves first fails fast with one clear error, before the data
directory is touched, and the log line names the address actually bound (port 0 included).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import signal
import socket
from collections.abc import Iterator
from signal import SIGINT, SIGTERM
from typing import Any

from query_api.errors import ServiceUnavailable, UsageError

log = logging.getLogger("repocontext")
BACKLOG = 2048  # uvicorn's default


def bind_listener(host: str, port: int, flag: str = "--port") -> socket.socket:
    """A listening TCP socket on host:port, or an error that says why not (naming `flag`,
    the option that chose the port: a worker's is --metrics-port)."""
    where = f"{host}:{port}"
    if not 0 <= port <= 65535:
        raise UsageError(f"cannot listen on {where}: the port must be from 0 to 65535")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise UsageError(f"cannot listen on {where}: unknown host ({exc})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServiceUnavailable(
                f"cannot listen on {where}: the address is already in use (another server "
                f"running? stop it or pass {flag})"
            ) from None
        raise ServiceUnavailable(f"cannot listen on {where}: {exc.strerror or exc}") from None
    return sock


async def serve_http(asgi: Any, listener: socket.socket, what: str) -> None:
    """Serve `asgi` on the bound `listener` until SIGTERM/SIGINT."""
    import uvicorn

    host, port = listener.getsockname()[:2]
    config = uvicorn.Config(asgi, log_level="warning", lifespan="on")
    log.info(
        "serving %s at http://%s:%d/mcp (health: /health/ready, metrics: /metrics)",
        what,
        f"[{host}]" if ":" in host else host,
        port,
    )
    await _graceful_server_class()(config).serve(sockets=[listener])


def _graceful_server_class() -> Any:
    import uvicorn

    class GracefulServer(uvicorn.Server):
        """uvicorn re-raises SIGTERM/SIGINT after its own shutdown, which would kill us before
        the app closes (flushing the log, reaping workers); here the signal only stops serving."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            previous = {s: signal.signal(s, self.handle_exit) for s in (SIGINT, SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    return GracefulServer
