"""The processor pool's workers leave Ctrl-C to their parent (issue 24 item 8): a terminal's
SIGINT reaches the whole foreground process group, and a worker that took it died with a
KeyboardInterrupt traceback on the user's screen and broke the pool under the parent's
orderly shutdown. Real spawned workers."""

from __future__ import annotations

import os
import signal

from streams.runtime.pool import processor_pool


def _pid() -> int:
    return os.getpid()


def test_a_worker_ignores_sigint_and_keeps_serving() -> None:
    pool = processor_pool(1)
    assert pool is not None
    try:
        worker = pool.submit(_pid).result(timeout=60)
        assert worker != os.getpid()
        os.kill(worker, signal.SIGINT)  # as a terminal's Ctrl-C does to the process group
        assert pool.submit(_pid).result(timeout=60) == worker  # the same worker, alive
    finally:
        pool.shutdown()
