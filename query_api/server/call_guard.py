"""What every tool call runs under: an end-to-end deadline, a fair share per repository,
and the write refusal of a faulted log.

- Deadline: the call's view reads run under a `read_budget`, so at the deadline SQLite stops
  the statements themselves (threads included), not only the wait for them; an interrupted
  read surfaces as the call's timeout.
- Fairness: at most `heavy_per_repo` heavy calls (search, context, ...) of one repository
  run at once; the rest wait their turn (FIFO, inside the deadline) without holding a worker
  thread, so a burst of heavy queries on one repository cannot starve another's.
- Writes: while `write_block()` names a fault (a lost or corrupt log), write tools are refused
  with that reason before anything is appended.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from query_api.errors import ServiceUnavailable
from query_api.server.tool_catalog import ToolSpec
from streams.stores.read_budget import ReadInterrupted, read_budget

T = TypeVar("T")

HEAVY_TOOLS = frozenset(
    {
        "repocontext_search",
        "repocontext_context",
        "repocontext_bootstrap",
        "repocontext_related",
        "repocontext_changed",
        "repocontext_eval",
    }
)


class RepoGate:
    """A FIFO semaphore per repository, dropped when nobody holds or waits on it."""

    def __init__(self, per_repo: int) -> None:
        self.per_repo = max(1, per_repo)
        self._slots: dict[str, tuple[asyncio.Semaphore, int]] = {}

    @contextlib.asynccontextmanager
    async def slot(self, repo_id: str) -> AsyncIterator[None]:
        semaphore, users = self._slots.get(repo_id, (asyncio.Semaphore(self.per_repo), 0))
        self._slots[repo_id] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._slots[repo_id]
            if users <= 1:
                del self._slots[repo_id]
            else:
                self._slots[repo_id] = (semaphore, users - 1)


class CallGuard:
    def __init__(
        self,
        timeout_s: float,
        heavy_per_repo: int = 2,
        write_block: Callable[[], str | None] | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.gate = RepoGate(heavy_per_repo)
        self.write_block = write_block

    async def run(self, spec: ToolSpec, repo_id: object, call: Callable[[], Awaitable[T]]) -> T:
        """`call()` under the deadline (TimeoutError past it), the repository's fair share
        when `spec` is heavy, and the write refusal."""
        if spec.writes and self.write_block is not None:
            reason = self.write_block()
            if reason is not None:
                raise ServiceUnavailable(
                    f"{spec.name} is refused: {reason}; nothing was written (reads still "
                    "answer from the views; see /health/ready)"
                )
        with read_budget(self.timeout_s):
            try:
                return await asyncio.wait_for(self._gated(spec, repo_id, call), self.timeout_s)
            except ReadInterrupted as exc:
                raise TimeoutError(str(exc)) from exc

    async def _gated(self, spec: ToolSpec, repo_id: object, call: Callable[[], Awaitable[T]]) -> T:
        if spec.name in HEAVY_TOOLS and isinstance(repo_id, str):
            async with self.gate.slot(repo_id):
                return await call()
        return await call()
