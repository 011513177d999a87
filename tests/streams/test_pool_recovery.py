"""A processor worker that dies (the OOM killer, a stray SIGKILL) must not stop indexing: the
pool it breaks refuses every later task, so the step failed forever ("step symbols has failed
5820 times in a row"). The next task starts a new pool. Real spawned workers."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

from streams.runtime.pool import processor_pool


def _pid() -> int:
    return os.getpid()


def test_a_killed_worker_is_replaced_on_the_next_task() -> None:
    pool = processor_pool(1)
    assert pool is not None
    try:
        worker = pool.submit(_pid).result(timeout=60)
        os.kill(worker, signal.SIGKILL)
        answered = None
        for _ in range(20):  # a task the dying pool took fails with it; a later one runs
            try:
                answered = pool.submit(_pid).result(timeout=60)
                break
            except BrokenProcessPool:
                continue
        assert answered is not None and answered != worker
        assert pool.starts == 2
    finally:
        pool.shutdown()
