"""Whether a remote event log answers, and the last measurement taken while it did.

A query replica serves from its own views; only freshness needs the broker. So the lag is
measured in the background (`LagWatch`, each attempt bounded by a short timeout) and answers,
health and metrics read the last measurement with its age and the log's reachability, never
waiting on a broker that is away. `LogContact` logs once per change of state (unreachable,
reachable again) instead of once per failed attempt: an outage of minutes is two lines, not
thousands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from streams.errors import EventLogError

log = logging.getLogger(__name__)
T = TypeVar("T")

# What a broker that is away raises through our log (LogUnreachable is an EventLogError),
# a bounded wait that ran out, and a refused or reset connection.
CONTACT_ERRORS: tuple[type[BaseException], ...] = (EventLogError, TimeoutError, OSError)


LOGGED_AFTER_FAILURES = 2  # an outage is logged from its second failed attempt in a row


class LogContact:
    """The event log's reachability as the last attempts saw it (unix seconds)."""

    def __init__(self, label: str, clock: Callable[[], float] = time.time) -> None:
        self.label = label
        self._clock = clock
        self.unreachable_since: float | None = None
        self.last_contact: float | None = None
        self.error: str | None = None
        self.failures = 0  # attempts failed since the last success

    @property
    def reachable(self) -> bool:
        return self.unreachable_since is None

    def succeeded(self) -> None:
        now = self._clock()
        if self.unreachable_since is not None and self.failures >= LOGGED_AFTER_FAILURES:
            log.warning(
                "%s: the event log answers again after %.0f s away (%d failed attempts)",
                self.label,
                now - self.unreachable_since,
                self.failures,
            )
        self.unreachable_since, self.error, self.failures = None, None, 0
        self.last_contact = now

    def failed(self, exc: BaseException) -> None:
        self.failures += 1
        self.error = f"{type(exc).__name__}: {exc}"[:500] if str(exc) else type(exc).__name__
        if self.unreachable_since is None:
            self.unreachable_since = self._clock()
        if self.failures == LOGGED_AFTER_FAILURES:  # one failed attempt alone is a blip
            log.error(
                "%s: the event log is unreachable (%s); serving what is held and retrying "
                "(logged again when it answers)",
                self.label,
                self.error,
            )


class LagWatch(Generic[T]):
    """`measure()` every `interval_s` in the background, each attempt bounded by `timeout_s`;
    `last` is the newest result and `measured_at` when it was taken."""

    def __init__(
        self,
        measure: Callable[[], Awaitable[T]],
        contact: LogContact,
        *,
        interval_s: float = 1.0,
        timeout_s: float = 3.0,
    ) -> None:
        self._measure = measure
        self.contact = contact
        self.interval_s = interval_s
        self.timeout_s = timeout_s
        self.last: T | None = None
        self.measured_at: float | None = None
        self.running = False

    async def refresh(self) -> T | None:
        """One bounded attempt; the newest measurement either way."""
        try:
            value = await asyncio.wait_for(self._measure(), self.timeout_s)
        except CONTACT_ERRORS as exc:
            self.contact.failed(exc)
        else:
            self.last, self.measured_at = value, time.time()
            self.contact.succeeded()
        return self.last

    async def run(self, stop: asyncio.Event) -> None:
        self.running = True
        try:
            while not stop.is_set():
                try:
                    await self.refresh()
                except Exception:  # a bug in measure must not end the watch silently
                    log.exception("%s: lag measurement failed", self.contact.label)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.interval_s)
        finally:
            self.running = False
