"""The deadline stops the SQLite work of a view read (not only the wait for it), the
connection stays usable, and one repository's heavy calls cannot starve another's."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from query_api.errors import ServiceUnavailable
from query_api.server.call_guard import CallGuard, RepoGate
from query_api.server.tool_catalog import ToolSpec
from schemas.tools import SearchArgs, SearchResult
from streams.stores.read_budget import ReadInterrupted, read_budget
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore

pytestmark = pytest.mark.anyio

# ~10^8 rows: tens of seconds of one core when nothing stops it
LONG = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) "
    "SELECT count(*) FROM c"
)


def long_read(views: ViewStore) -> int:
    return int(views.read(lambda c: c.execute(LONG).fetchone()[0]))


def spec(name: str, writes: bool = False) -> ToolSpec:
    return ToolSpec(name, "d", SearchArgs, SearchResult, lambda s: s.core.search, writes=writes)


async def test_a_long_read_stops_at_its_deadline_and_the_connection_stays_usable(
    tmp_path: Path,
) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        with read_budget(0.05), pytest.raises(ReadInterrupted):
            await asyncio.to_thread(long_read, views)  # in a worker thread, as tools read
        assert views.list_repos() == []  # the same thread-local reader, after the interrupt
        with read_budget(5.0):
            assert await asyncio.to_thread(views.list_repos) == []


async def test_a_read_stopped_because_its_call_ended_does_not_blame_a_deadline(
    tmp_path: Path,
) -> None:
    """A client that hangs up ends its call long before the deadline: the interruption says
    so (a QA pass: a disconnect 50 ms into a search logged "stopped at its deadline of 30 s")."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        with read_budget(30.0) as budget:
            reading = asyncio.ensure_future(asyncio.to_thread(long_read, views))
            await asyncio.sleep(0.1)
            budget.ended = True  # what read_budget does when the call returns or is cancelled
            with pytest.raises(ReadInterrupted) as stopped:
                await reading
        assert "deadline" not in str(stopped.value)
        assert "call ended" in str(stopped.value)
        with read_budget(0.05), pytest.raises(ReadInterrupted) as late:
            await asyncio.to_thread(long_read, views)
        assert "deadline of 0.05 s" in str(late.value)


async def test_a_timed_out_call_stops_its_thread(tmp_path: Path) -> None:
    """The call's deadline passes; its read thread ends with it instead of running on."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        guard = CallGuard(timeout_s=0.1)
        with pytest.raises(TimeoutError):
            await guard.run(spec("repocontext_search"), "alpha", lambda: _read_in_thread(views))
        deadline = time.monotonic() + 10  # the unbounded query would run far longer
        while views._active_reads and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert views._active_reads == 0


async def _read_in_thread(views: ViewStore) -> int:
    return await asyncio.to_thread(long_read, views)


async def test_one_repositorys_heavy_calls_do_not_hold_back_another() -> None:
    guard = CallGuard(timeout_s=30, heavy_per_repo=1)
    release = asyncio.Event()
    started: list[str] = []

    async def heavy(tag: str) -> str:
        started.append(tag)
        await release.wait()
        return tag

    first = asyncio.create_task(guard.run(spec("repocontext_search"), "alpha", lambda: heavy("a1")))
    second = asyncio.create_task(
        guard.run(spec("repocontext_search"), "alpha", lambda: heavy("a2"))
    )
    while "a1" not in started:
        await asyncio.sleep(0)

    async def quick() -> str:
        return "b"

    assert await guard.run(spec("repocontext_search"), "beta", quick) == "b"  # not queued
    assert started == ["a1"]  # alpha's second call waits for alpha's slot
    release.set()
    assert list(await asyncio.gather(first, second)) == ["a1", "a2"]
    assert guard.gate._slots == {}  # nothing kept per repository once idle


async def test_repo_gate_is_fifo() -> None:
    gate = RepoGate(1)
    order: list[int] = []

    async def take(n: int) -> None:
        async with gate.slot("r"):
            order.append(n)
            await asyncio.sleep(0)

    await asyncio.gather(*(take(n) for n in range(5)))
    assert order == [0, 1, 2, 3, 4]


async def test_writes_are_refused_while_the_log_is_faulted() -> None:
    guard = CallGuard(timeout_s=5, write_block=lambda: "the event log is corrupt")
    ran: list[str] = []

    async def write() -> str:
        ran.append("w")
        return "w"

    with pytest.raises(ServiceUnavailable, match="the event log is corrupt"):
        await guard.run(spec("repocontext_remember", writes=True), "alpha", write)
    assert ran == []
    assert await guard.run(spec("repocontext_search"), "alpha", write) == "w"  # reads answer
