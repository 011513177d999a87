"""Passage (backfill) encoding in a child process of its own, at a lower OS priority.

Why a process and not low-priority threads in the server: the encoder's Python-level work
(tokenising, dispatching hundreds of numpy calls per batch) holds the server's GIL, so a
backfill slowed every tool call however low its threads' nice value was. In a child process
it competes for cores only, where the kernel's nice value decides: the server's event loop
and a query's own encoding (in the server, at normal priority) get the CPU first.

The child loads its own copy of the model, so it is started on the first batch and stopped
once no batch has come for `idle_stop_s`: a repository whose backfill is done holds no
second model. `foreground=True` (a CLI command the user waits for) starts it at normal
priority, as wide as `threads` allows, instead of as wide as the idle cores.

Queries: while a child runs it also answers query embeddings, on a thread of its own at
normal priority (nice is per thread on Linux: the child lowers only its batch thread's, and
the encoder threads that thread starts inherit it) and over a channel of their own, so a
query never queues behind a batch and the server holds no model copy of its own meanwhile
(`encode_query`; LocalEmbedder falls back to a model in the server when no child runs).

Tool calls first: the server's foreground gate (foreground_gate.py, one shared page) says when
a tool call is in flight (`hold`), and the child's batch threads wait at their next layer
until it is over, so a search gets the cores (and the child's GIL) to itself.

The protocol is pickle over the child's stdin/stdout (both ends are this code): one
`(texts, width)` request, one `("ok", width, vectors)` or `("error", message)` reply; on the
query socket one list of texts, one `("ok", vectors)` or `("error", message)` reply.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from streams.embedders.cpu_share import BACKGROUND_NICE
from streams.embedders.foreground_gate import ForegroundGate
from streams.errors import StreamsError

log = logging.getLogger(__name__)

IDLE_STOP_S = 20.0  # long enough to span the vector step's pauses between record batches
START_WAIT_S = 60.0  # a query waits at most this long for a child that is starting
WORKER_MODULE = "streams.embedders.passage_worker"


class PassageProcessError(StreamsError, RuntimeError):
    """The passage encoder process failed or closed; the message says how."""


class PassageProcess:
    """One child process encoding passage batches, one batch at a time (thread-safe)."""

    def __init__(
        self,
        folder: Path,
        *,
        threads: int,
        nice: int = BACKGROUND_NICE,
        idle_stop_s: float = IDLE_STOP_S,
    ) -> None:
        self.folder = folder
        self.threads = max(1, threads)
        self.nice = nice
        self.idle_stop_s = idle_stop_s
        self.foreground = False
        self.starts = 0  # children started (a restart after an idle stop counts)
        self.last_workers = 0  # encoder threads the latest batch ran on
        self.in_flight = False  # a batch was handed to a ready child and is not answered yet
        self._child: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # one batch at a time; start and stop
        self._queries: _QueryChannel | None = None  # set while a started child is ready
        self._query_lock = threading.Condition()  # one query at a time; the channel's state
        self._starting = False
        self._timer: threading.Timer | None = None
        self._closed = False
        self.gate = ForegroundGate()  # every child maps it; it outlives them

    @property
    def starting(self) -> bool:
        """A child is being started (its model loads); queries wait for it."""
        return self._starting

    @property
    def answering(self) -> bool:
        """A started child answers queries now (its query channel is open)."""
        return self._queries is not None

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None and child.poll() is None else None

    def set_foreground(self, foreground: bool) -> None:
        """Foreground: the user waits, so the child runs at normal priority on every thread.
        A running child keeps its priority (raising it back needs privileges), so it is
        stopped and the next batch starts one with the new setting."""
        with self._lock:
            if foreground != self.foreground:
                self.foreground = foreground
                self._stop_locked()

    def hold(self, busy: bool) -> None:
        """A tool call began (True) or ended (False): batch steps wait while any is in flight."""
        self.gate.hold(busy)

    def encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """The passages' vectors; raises PassageProcessError when the child fails (the next
        call starts a fresh one)."""
        with self._lock:
            if self._closed:
                raise PassageProcessError("the passage encoder is closed")
            self._cancel_timer()
            try:
                child = self._running()
                width = self.threads if self.foreground else None
                _send(child, (texts, width))
                self.in_flight = True
                reply = _receive(child)
            except (OSError, EOFError, pickle.PickleError) as exc:
                self._stop_locked()
                raise PassageProcessError(f"the passage encoder process failed: {exc}") from exc
            finally:
                self.in_flight = False
                self._arm_timer()
        if reply[0] != "ok":
            raise PassageProcessError(str(reply[1]))
        self.last_workers = int(reply[1])
        vectors: npt.NDArray[np.float32] = reply[2]
        return vectors

    def encode_query(self, texts: list[str]) -> npt.NDArray[np.float32] | None:
        """The queries' vectors from the running child (waiting for one that is starting), or
        None when no child runs or it failed: the caller encodes them itself."""
        with self._query_lock:
            deadline = time.monotonic() + START_WAIT_S
            while self._starting and self._queries is None:
                if not self._query_lock.wait(max(0.0, deadline - time.monotonic())):
                    break
            channel = self._queries
            if channel is None:
                return None
            try:
                reply = channel.ask(texts)
            except (OSError, EOFError, pickle.PickleError) as exc:
                log.warning("the passage encoder's query channel failed: %s", exc)
                self._queries = None
                channel.close()
                return None
        if reply[0] != "ok":
            log.warning("the passage encoder could not embed a query: %s", reply[1])
            return None
        vectors: npt.NDArray[np.float32] = reply[1]
        return vectors

    def close(self) -> None:
        """Stop the child; a batch in flight is not waited for (its caller gets an error)."""
        self._closed = True
        if not self._lock.acquire(blocking=False):
            child = self._child
            if child is not None:
                with contextlib.suppress(OSError):
                    child.kill()  # the batch's read ends at once, and it releases the lock
            self._lock.acquire()
        try:
            self._cancel_timer()
            self._stop_locked()
        finally:
            self._lock.release()

    # -- the child ----------------------------------------------------------------------

    def _running(self) -> subprocess.Popen[bytes]:
        if self._child is not None and self._child.poll() is None:
            return self._child
        self._stop_locked()
        nice = 0 if self.foreground else self.nice
        ours, theirs = socket.socketpair()
        args = [sys.executable, "-m", WORKER_MODULE, str(self.folder), str(self.threads)]
        with self._query_lock:
            self._starting = True
        try:
            child = subprocess.Popen(
                [*args, str(nice), str(os.getpid()), str(theirs.fileno()), str(self.gate.fd)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=_source_root(),
                pass_fds=(theirs.fileno(), self.gate.fd),
            )
            self._child = child
            self.starts += 1
            theirs.close()
            hello = _receive(child)  # the model is loaded (or why not)
            if hello[0] != "ready":
                self._stop_locked()
                raise PassageProcessError(str(hello[1]))
            with self._query_lock:
                self._queries = _QueryChannel(ours)
        except BaseException:
            theirs.close()
            ours.close()
            raise
        finally:
            with self._query_lock:
                self._starting = False
                self._query_lock.notify_all()
        return child

    def _stop_locked(self) -> None:
        with self._query_lock:  # a query in flight finishes first (milliseconds)
            channel, self._queries = self._queries, None
        if channel is not None:
            channel.close()
        child, self._child = self._child, None
        if child is None:
            return
        with contextlib.suppress(OSError):
            if child.stdin is not None:
                child.stdin.close()  # the child's read ends: it exits
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()

    def _arm_timer(self) -> None:
        if self._closed or self._child is None:
            return
        self._timer = threading.Timer(self.idle_stop_s, self._stop_if_idle)
        self._timer.daemon = True
        self._timer.start()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _stop_if_idle(self) -> None:
        self.stop_if_idle()

    def stop_if_idle(self) -> bool:
        """Stop the child now unless a batch runs (a batch re-arms the timer when it ends);
        True when no child is left."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            self._cancel_timer()
            self._stop_locked()
            return True
        finally:
            self._lock.release()


class _QueryChannel:
    """The server's end of a child's query socket (used under PassageProcess._query_lock)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb")
        self.writer = sock.makefile("wb")

    def ask(self, texts: list[str]) -> tuple[Any, ...]:
        pickle.dump(texts, self.writer, protocol=pickle.HIGHEST_PROTOCOL)
        self.writer.flush()
        message = pickle.load(self.reader)
        if not isinstance(message, tuple) or not message:
            raise PassageProcessError(f"unexpected reply from the passage encoder: {message!r}")
        return message

    def close(self) -> None:
        for stream in (self.writer, self.reader, self.sock):
            with contextlib.suppress(OSError):
                stream.close()


def _source_root() -> str:
    """The folder holding `streams`: the child runs there, so `-m` finds this source tree as
    the parent did (a checkout run without install) and the environment is left as it is."""
    return str(Path(__file__).resolve().parents[2])


def _send(child: subprocess.Popen[bytes], message: object) -> None:
    stream: IO[bytes] | None = child.stdin
    if stream is None:
        raise OSError("the child has no stdin")
    pickle.dump(message, stream, protocol=pickle.HIGHEST_PROTOCOL)
    stream.flush()


def _receive(child: subprocess.Popen[bytes]) -> tuple[Any, ...]:
    stream: IO[bytes] | None = child.stdout
    if stream is None:
        raise OSError("the child has no stdout")
    message = pickle.load(stream)
    if not isinstance(message, tuple) or not message:
        raise PassageProcessError(f"unexpected reply from the passage encoder: {message!r}")
    return message
