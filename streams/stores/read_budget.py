"""A deadline that stops the SQLite work of a view read, not just the wait for it.

A tool call runs its reads in worker threads; cancelling the awaiting coroutine at the
call's deadline leaves such a thread running its query to the end, still taking a core.
The caller opens a `read_budget` around the call; the context variable travels into
`asyncio.to_thread` workers (they run in a copy of the caller's context), and ViewStore.read
installs a progress handler that makes SQLite abandon the statement (SQLITE_INTERRUPT) once
the deadline has passed or the call has ended. The connection stays usable afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar, copy_context

from streams.errors import StoreError

# SQLite virtual-machine instructions between two deadline checks: a few microseconds of
# work, so a check costs nothing measurable and a statement stops within a millisecond.
PROGRESS_STEPS = 1000


class ReadInterrupted(StoreError):
    """A view read was abandoned because its call's deadline passed or the call ended."""


class ReadBudget:
    """Until when the reads of one call may run; `ended` once the call has returned."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds
        self.ended = False

    def exhausted(self) -> bool:
        """The progress handler: a true value makes SQLite interrupt the statement."""
        return self.ended or time.monotonic() >= self.deadline

    def why(self) -> str:
        """Why a read was stopped, for its error and the log: a caller that hung up ends
        its call long before the deadline, and blaming the deadline sends an operator
        looking for a slow query that never was."""
        if time.monotonic() >= self.deadline:
            return f"the read was stopped at its deadline of {self.seconds:g} s"
        return (
            "the read was stopped because its call ended (answered, cancelled or the caller gone)"
        )


_current: ContextVar[ReadBudget | None] = ContextVar("repocontext_read_budget", default=None)


def current_budget() -> ReadBudget | None:
    return _current.get()


def unbudgeted_context() -> Context:
    """A copy of the current context without a read budget, for background work that a call
    starts and that outlives it (an ingest job launched by add_repo): a task inherits its
    creator's context, and the call's budget ends when the call returns."""
    context = copy_context()
    context.run(_current.set, None)
    return context


@contextmanager
def read_budget(seconds: float) -> Iterator[ReadBudget]:
    """Bound every view read started inside (in this task or threads it starts)."""
    budget = ReadBudget(seconds)
    token = _current.set(budget)
    try:
        yield budget
    finally:
        budget.ended = True  # reads still running in threads stop at their next check
        _current.reset(token)
