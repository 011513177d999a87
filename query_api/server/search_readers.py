"""Search reader processes: more than one core ranking keyword searches for one server.

A search is mostly Python, and in one process only one thread runs Python at a time, so one
server ranks about one search per CPU-tens-of-milliseconds whatever the cores. With
`REPOCONTEXT_SEARCH_READERS=N` (keyword-only servers: `--embedder none`), the process that owns
the data directory keeps HTTP, MCP sessions, admission, writes, freshness and rendering, and
hands each search's ranking and hit details (query_api/core/search_ranking.py) to one of N
reader processes (query_api/server/search_reader.py) that opened the views read-only.

- Same answers: the reader runs the owner's own ranking function on the same views. SQLite in
  WAL mode shows a read that starts after a commit everything committed, so a search that
  follows a write (repocontext_refresh's read-your-writes) sees it in a reader too; the
  owner's views generation travels with each request so the reader's per-file caches empty
  when the views change.
- The caller's grants and the call's remaining deadline travel with the request; the reader
  stops its SQLite reads at the deadline as the owner would.
- A reader that dies is started again (in the background); the search it was answering is
  ranked in the owner instead, so the caller gets its answer, and the log says why.
- A call cancelled at its deadline leaves its reader finishing; that reader goes back to the
  idle ones once its late answer is read and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import query_api
from query_api.access.read_scope import current_caller
from query_api.core.search_ranking import Ranked
from query_api.errors import ServiceUnavailable
from query_api.server.search_reader import BrokenFrame, frame, read_frame_async
from schemas import tools as t
from streams.stores.read_budget import current_budget
from streams.stores.views.store import ViewStore

log = logging.getLogger(__name__)
MAX_READERS = 32
START_TIMEOUT_S = 1900.0  # a reader answers ready once its postings are built (search_reader)
DEFAULT_BUDGET_S = 60.0  # a request made outside a tool call's deadline
SETTLE_POLL_S = 1.0  # how often the start checks whether the keyword index is complete
RESTART_PAUSE_S = 1.0  # between a reader's death and its replacement: no tight crash loop

LocalRanking = Callable[[t.SearchArgs, bool], Awaitable[Ranked]]
IndexState = Callable[[], tuple[bool, int]]  # the owner's file graphs' settled_state


class ReaderGone(ServiceUnavailable):
    """The reader process exited or broke its pipe."""


class ReaderProcess:
    """One reader process and its pipes; one request at a time."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        assert proc.stdin is not None and proc.stdout is not None
        self.stdin = proc.stdin
        self.stdout = proc.stdout

    @classmethod
    async def start(cls, views_path: str, stretch: int = 0) -> ReaderProcess:
        """A reader of `views_path`; `stretch` is the owner's settled stretch of the index
        (FileGraphs.settled_state): a graph the reader builds in a later one is rebuilt."""
        # run from the directory that holds this build's packages: `-m` imports them first
        root = Path(query_api.__file__).resolve().parents[1]
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "query_api.server.search_reader",
            str(Path(views_path).resolve()),
            str(stretch),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=root,
        )
        reader = cls(proc)
        try:
            hello = pickle.loads(
                await asyncio.wait_for(read_frame_async(reader.stdout), START_TIMEOUT_S)
            )
        except (BrokenFrame, TimeoutError) as exc:
            await reader.stop()
            raise ReaderGone(
                f"a search reader did not start (exit status {proc.returncode}; its error is "
                "in the server's log)"
            ) from exc
        except BaseException:  # cancelled while it warms up: it must not outlive us
            await reader.stop()
            raise
        if not (isinstance(hello, tuple) and hello[0] == "ready"):
            await reader.stop()
            raise ReaderGone(f"a search reader answered {hello!r} instead of ready")
        return reader

    async def ask(self, request: tuple[Any, ...]) -> tuple[str, Any]:
        try:
            self.stdin.write(frame(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)))
            await self.stdin.drain()
            answer: tuple[str, Any] = pickle.loads(await read_frame_async(self.stdout))
        except (BrokenFrame, ConnectionError, OSError) as exc:
            raise ReaderGone(f"search reader {self.proc.pid} stopped ({exc})") from exc
        return answer

    async def drop_answer(self) -> None:
        """Read and drop the answer of a request whose caller stopped waiting."""
        try:
            await read_frame_async(self.stdout)
        except BrokenFrame as exc:
            raise ReaderGone(f"search reader {self.proc.pid} stopped") from exc

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 5.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


class SearchReaders:
    """N reader processes ranking searches for this process (the service's `ranking`)."""

    def __init__(
        self,
        views: ViewStore,
        count: int,
        local: LocalRanking,
        index_state: IndexState = lambda: (True, 0),
    ) -> None:
        if not 1 <= count <= MAX_READERS:
            raise ValueError(f"search readers must be from 1 to {MAX_READERS} (got {count})")
        self.views = views
        self.count = count
        self.local = local
        self.index_state = index_state  # travels with each request: the readers' file graphs
        self._idle: asyncio.Queue[ReaderProcess] = asyncio.Queue()
        self._all: set[ReaderProcess] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._joined = asyncio.Event()
        self.restarts = 0
        self.answered = 0  # searches the readers ranked (the rest were ranked here)

    def start(self, settled: Callable[[], Awaitable[bool]] | None = None) -> None:
        """Start every reader in the background, once `settled()` says the keyword index is
        complete (a reader that built its file graphs over a half-applied index would fill
        answers' tails from them until they are rebuilt); each answers searches once its
        postings are built. Until then, and whenever none is alive, searches are ranked here."""
        self._spawn(self._start_when(settled))

    async def _start_when(self, settled: Callable[[], Awaitable[bool]] | None) -> None:
        while settled is not None and not self._closed and not await settled():
            await asyncio.sleep(SETTLE_POLL_S)
        for _ in range(self.count):
            self._spawn(self._started())

    async def _started(self) -> None:
        await self._join(first=True)

    async def _join(self, first: bool) -> bool:
        """Start a reader (after a pause unless `first`) until one starts or we close."""
        while not self._closed:
            if not first:
                await asyncio.sleep(RESTART_PAUSE_S)
            first = False
            try:
                fresh = await ReaderProcess.start(self.views.path, self.index_state()[1])
            except ReaderGone as exc:
                log.warning("%s; trying again", exc)
                continue
            if self._closed:
                await fresh.stop()
                return False
            self._all.add(fresh)
            self._idle.put_nowait(fresh)
            self._joined.set()
            log.info("search reader %d answers searches", fresh.proc.pid)
            return True
        return False

    async def wait_ready(self, timeout: float) -> bool:
        """Until every reader answers searches (tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        while len(self._all) < self.count:
            if time.monotonic() >= deadline:
                return False
            self._joined.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._joined.wait(), deadline - time.monotonic())
        return True

    async def rank(self, args: t.SearchArgs, details: bool) -> Ranked:
        budget = current_budget()
        seconds = DEFAULT_BUDGET_S if budget is None else budget.deadline - time.monotonic()
        request = (
            args,
            details,
            current_caller(),
            self.views.generation,
            max(0.0, seconds),
            self.index_state(),
        )
        if not self._all:  # every reader died and none has started again yet
            return await self.local(args, details)
        reader = await self._idle.get()
        try:
            kind, value = await reader.ask(request)
        except ReaderGone as exc:
            self._replace(reader, str(exc))
            return await self.local(args, details)  # the caller still gets its answer
        except asyncio.CancelledError:  # the caller's deadline: the answer comes later
            self._later(reader)
            raise
        self._idle.put_nowait(reader)
        if kind == "ok" and isinstance(value, Ranked):
            self.answered += 1
            return value
        if isinstance(value, BaseException):
            raise value
        raise RuntimeError(f"a search reader answered {kind!r}")

    def _later(self, reader: ReaderProcess) -> None:
        async def drain() -> None:
            try:
                await reader.drop_answer()
            except ReaderGone as exc:
                self._replace(reader, str(exc))
                return
            self._idle.put_nowait(reader)

        self._spawn(drain())

    def _replace(self, reader: ReaderProcess, why: str) -> None:
        self._all.discard(reader)
        log.warning("%s; ranking this search here and starting another reader", why)

        async def restart() -> None:
            await reader.stop()
            if await self._join(first=False):
                self.restarts += 1

        self._spawn(restart())

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("search readers: %s", task.exception(), exc_info=task.exception())

    def idle(self) -> int:
        """Readers waiting for a search."""
        return self._idle.qsize()

    def pids(self) -> list[int]:
        return sorted(r.proc.pid for r in self._all)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*(r.stop() for r in list(self._all)), return_exceptions=True)
        self._all.clear()


async def start_search_readers(
    service: Any,
    count: int,
    embedder: str,
    settled: Callable[[], Awaitable[bool]] | None = None,
) -> SearchReaders | None:
    """Start `count` readers ranking `service`'s searches (None for 0) once `settled()`.
    Refused with the reason when an embedder is configured: the vector store answers in one
    process only."""
    if count <= 0:
        return None
    if embedder != "none":
        from query_api.errors import UsageError

        raise UsageError(
            f"REPOCONTEXT_SEARCH_READERS={count} needs a keyword-only server (--embedder none): "
            f"the vector store of embedder {embedder!r} is opened by one process"
        )
    retriever = service.retriever  # the owner's: its file graphs know whether the index is
    readers = SearchReaders(service.views, count, service.rank_here)  # complete (file_graph.py)
    if retriever is not None:
        readers.index_state = retriever.graphs.settled_state
    readers.start(settled)
    service.ranking = readers
    return readers
