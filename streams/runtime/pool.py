"""Worker processes for the pure processor steps.

Processors are pure, so the embedded runtime can run them in other processes: tokenising
then uses another core instead of competing for the main process's GIL (measured: cold
indexing of Django went from ~810 to ~1,370 files/s on 2 cores). Workers are `spawn`ed (never
fork a process that holds threads) and die with their parent: a SIGKILLed indexer must not
leave orphans holding its pipes and memory. An idle pool stops its workers (IdlePool): a
server whose repositories are indexed holds no worker processes until the next change.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
IDLE_STOP_S = 20.0  # a watcher's next batch of edits usually comes sooner than this

_PR_SET_PDEATHSIG = 1
_live_pools = 0  # started and not yet stopped, over every IdlePool (guarded by _pools_lock)
_pools_lock = threading.Lock()


def die_with_parent(parent_pid: int) -> None:
    """Worker initializer (and the passage encoder's first call): SIGKILL ourselves when the
    parent dies (Linux), else poll for it.
    Ctrl-C is the parent's to handle: a terminal sends SIGINT to the whole process group, and
    a worker taking it would die with a traceback in the middle of the parent's shutdown."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def spawn_hint() -> str:
    """What a worker's death may mean when the main module is a script of the caller's own:
    workers are spawned, and each imports that script again as `__mp_main__`, so one that
    opens repocontext at its top level (no `if __name__ == "__main__":` guard) opens it again
    in every worker, which dies on the data directory's lock. A QA pass saw only "step
    structural has failed 76 times in a row (BrokenProcessPool)", never why."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    entry = getattr(getattr(main, "main", None), "__module__", None) or ""
    if not path or getattr(main, "__package__", None) == "repocontext":
        return ""
    if entry.startswith("repocontext."):  # our console script, which guards its call
        return ""
    return (
        f" (if {os.path.basename(path)} starts repocontext in process, run that under"
        ' `if __name__ == "__main__":`: each worker process imports it again)'
    )


def import_processors() -> None:
    """A worker's first task when its pool starts ahead of the first batch (`IdlePool.warm`):
    the worker's imports (about 0.8 s of CPU) then overlap its parent's start-up instead of
    delaying the first batch."""
    import streams.runtime.steps  # noqa: F401  (process_batch and every processor)


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def processor_pool(workers: int | None, idle_stop_s: float = IDLE_STOP_S) -> IdlePool | None:
    """A pool of `workers` processes (None: cores - 1, at most 4); None when that is 0."""
    if workers is None:
        workers = max(0, min(4, available_cores() - 1))
    if workers <= 0:
        return None
    count = workers

    def start() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=count,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )

    return IdlePool(start, idle_stop_s)


class IdlePool(Executor):
    """A process pool started on its first task and stopped once no task has run for
    `idle_stop_s` (its workers' memory goes back); the next task starts a fresh one."""

    def __init__(self, start: Callable[[], ProcessPoolExecutor], idle_stop_s: float) -> None:
        self._start = start
        self.idle_stop_s = idle_stop_s
        self.starts = 0  # pools started (a restart after an idle stop counts)
        self._pool: ProcessPoolExecutor | None = None
        self._running = 0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._shut = False

    @property
    def alive(self) -> bool:
        """Whether worker processes are held now."""
        return self._pool is not None

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._pool is None:
                self._pool = _counted(self._start)
                self.starts += 1
            try:
                future = self._pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                # a worker died (killed, out of memory): this pool refuses every task from now
                # on, so the step would fail forever; the tasks it lost failed already
                log.warning("a processor worker process died; starting a new pool%s", spawn_hint())
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._start()
                self.starts += 1
                future = self._pool.submit(fn, *args, **kwargs)
            self._running += 1
        future.add_done_callback(self._finished)
        return future

    def warm(self) -> Future[None]:
        """Start the workers now, importing the processors, ahead of the first batch."""
        return self.submit(import_processors)

    def _finished(self, _: Future[Any]) -> None:
        with self._lock:
            self._running -= 1
            if self._running or self._shut or self._pool is None:
                return
            self._timer = threading.Timer(self.idle_stop_s, self._stop_if_idle)
            self._timer.daemon = True
            self._timer.start()

    def _stop_if_idle(self) -> None:
        self.stop_if_idle()

    def stop_if_idle(self) -> bool:
        """Stop the workers now when no task runs (the owner knows no more are coming soon);
        True when they were stopped."""
        with self._lock:
            if self._running or self._pool is None:
                return False
            if self._timer is not None:
                self._timer.cancel()
            pool, self._pool, self._timer = self._pool, None, None
        pool.shutdown(wait=True)  # idle: returns once the workers have exited
        del pool
        _stopped(settled=True)
        return True

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shut = True
            if self._timer is not None:
                self._timer.cancel()
            pool, self._pool, self._timer = self._pool, None, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)
            del pool
            _stopped(settled=wait)


def _counted(start: Callable[[], ProcessPoolExecutor]) -> ProcessPoolExecutor:
    global _live_pools
    with _pools_lock:  # a pool starting meanwhile would have its semaphores unlinked
        pool = start()
        _live_pools += 1
        return pool


def _stopped(*, settled: bool) -> None:
    """A pool stopped: with none left and its workers gone (`settled`), multiprocessing's
    resource tracker stops too. Every spawned pool starts that tracker (a Python process of
    ~12 MiB, for the pool's named semaphores) and it would otherwise outlive the pool for
    good, through a whole vector backfill; the next pool starts a fresh one. The stopped
    pool's queues are collected first, so their semaphores are unlinked and unregistered and
    the tracker has nothing left to clean."""
    global _live_pools
    with _pools_lock:
        _live_pools -= 1
        if _live_pools or not settled:
            return
        gc.collect()
        stop = getattr(resource_tracker._resource_tracker, "_stop", None)
        if stop is not None:  # private to multiprocessing: where it is missing, it stays
            stop()
