"""The foreground lease (spec §1.1): background embedding yields while an agent waits.

On a laptop the vector backfill and the MCP server share the same few cores (and one GIL),
so a 32-passage batch that starts while an agent's search is in flight can delay that answer
by a second. Every tool call holds a lease for its duration; before each embedding batch the
backfill waits until no lease is held and none ended within `quiet_s`, so a burst of calls
runs unimpeded. It never waits longer than `max_defer_s`, so under constant load backfill
still progresses (then in small batches: `wait_turn` says it was not quiet).
A batch already running is told too: `on_hold` callbacks hear when a call begins (True) and
ends (False), so an encoder can step aside mid-batch (streams/embedders/foreground_gate.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class ForegroundPacer:
    def __init__(self, quiet_s: float = 0.2, max_defer_s: float = 5.0, poll_s: float = 0.02):
        self.quiet_s = quiet_s
        self.max_defer_s = max_defer_s
        self.poll_s = poll_s
        self.active = 0
        self._last_end = 0.0
        self.deferrals = 0  # background batches that waited for the foreground (a counter)
        self.on_hold: list[Callable[[bool], None]] = []

    @contextmanager
    def lease(self) -> Iterator[None]:
        """Held by a foreground request (an MCP tool call) while it runs."""
        self.active += 1
        for hold in self.on_hold:
            hold(True)
        try:
            yield
        finally:
            self.active -= 1
            self._last_end = time.monotonic()
            for hold in self.on_hold:
                hold(False)

    @contextmanager
    def aside(self) -> Iterator[None]:
        """Inside a lease: the call waits on the background itself (a refresh waiting for
        its files' vectors), so it stops counting as foreground until it goes on; else
        the batch it waits for would wait `max_defer_s` for it."""
        self.active -= 1
        self._last_end = time.monotonic()
        for hold in self.on_hold:
            hold(False)
        try:
            yield
        finally:
            self.active += 1
            for hold in self.on_hold:
                hold(True)

    def quiet(self) -> bool:
        return self.active == 0 and time.monotonic() - self._last_end >= self.quiet_s

    async def wait_turn(self) -> bool:
        """Before a background batch: wait for a quiet moment, at most `max_defer_s`.
        True when the foreground is quiet, False when the wait ran out (go, but briefly)."""
        if self.quiet():
            return True
        self.deferrals += 1
        deadline = time.monotonic() + self.max_defer_s
        while time.monotonic() < deadline:
            await asyncio.sleep(self.poll_s)
            if self.quiet():
                return True
        return False
