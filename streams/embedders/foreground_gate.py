"""The foreground gate: backfill encoding steps aside while a tool call is in flight.

A lower OS priority is not enough on a small, shared machine: the encoder child's batch
threads still fill both cores between a query's time slices, its GIL hand-offs and its memory
traffic, and the kernel's fair share between sessions counts the child's CPU against the
server's. So the server tells the child when a caller waits (the foreground pacer's lease,
streams/pacer.py), through one shared memory page (a memfd the child maps), and the child's
batch threads wait at their next step (a transformer layer, a few milliseconds) until the call
is over. The query thread never waits on it.

Bounded so a constant stream of calls cannot starve the backfill: one wait lasts at most
`most_wait_s`; after a wait that ran out the batch threads run free for `free_s`.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import struct
import threading
import time

_LAYOUT = struct.Struct("=q")  # tool calls in flight (the server's count)
MOST_WAIT_S = 1.0
FREE_S = 0.25
POLL_S = 0.004


class ForegroundGate:
    """One page shared by the server (`hold`) and its encoder child (`wait`)."""

    def __init__(self, fd: int | None = None) -> None:
        """No fd: make the page (the server's side); an fd: map the page it names (the
        child's side, from the fd the server passed it)."""
        if fd is None:
            fd = os.memfd_create("repocontext-foreground", os.MFD_CLOEXEC)
            os.ftruncate(fd, mmap.PAGESIZE)
        self.fd = fd
        self._page = mmap.mmap(fd, mmap.PAGESIZE)
        self._lock = threading.Lock()  # the server's count: read, change, write
        self._free_until = 0.0
        self.waits = 0  # steps that waited (a counter, for tests and benchmarks)

    def hold(self, busy: bool) -> None:
        """A tool call began (True) or ended (False). Never raises: a closed gate (the
        embedder shut down under a call) is left as it is."""
        with self._lock, contextlib.suppress(ValueError):
            count = max(0, self.in_flight() + (1 if busy else -1))
            _LAYOUT.pack_into(self._page, 0, count)

    def in_flight(self) -> int:
        value: int = _LAYOUT.unpack_from(self._page, 0)[0]
        return value

    def wait(
        self, most_wait_s: float = MOST_WAIT_S, free_s: float = FREE_S, poll_s: float = POLL_S
    ) -> None:
        """A batch thread's step: return at once unless a call is in flight, else when it is
        over or `most_wait_s` has passed (then the next `free_s` run without waiting)."""
        if self.in_flight() <= 0:
            return
        now = time.monotonic()
        if now < self._free_until:
            return
        self.waits += 1
        deadline = now + most_wait_s
        while self.in_flight() > 0:
            now = time.monotonic()
            if now >= deadline:
                self._free_until = now + free_s
                return
            time.sleep(poll_s)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError, BufferError):
            self._page.close()
        with contextlib.suppress(OSError):
            os.close(self.fd)
