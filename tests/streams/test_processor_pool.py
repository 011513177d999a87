"""The processor pool's workers leave Ctrl-C to their parent (issue 24 item 8): a terminal's
SIGINT reaches the whole foreground process group, and a worker that took it died with a
KeyboardInterrupt traceback on the user's screen and broke the pool under the parent's
orderly shutdown. Real spawned workers."""

from __future__ import annotations

import os
import signal
import time

import pytest

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


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_an_idle_pool_stops_its_workers_and_starts_them_again_on_demand() -> None:
    """Issue 21 item 4: a server whose repositories are indexed holds no worker process."""
    pool = processor_pool(1, idle_stop_s=0.05)
    assert pool is not None
    try:
        worker = pool.submit(_pid).result(timeout=60)
        deadline = time.monotonic() + 60
        while not (_gone(worker) and not pool.alive) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _gone(worker) and not pool.alive, "the idle worker process was not stopped"
        again = pool.submit(_pid).result(timeout=60)  # on demand: a fresh worker
        assert again not in (worker, os.getpid()) and pool.starts == 2
    finally:
        pool.shutdown()
    assert not pool.alive


def _trackers() -> list[int]:
    """This process's children that run multiprocessing's resource tracker."""
    found = []
    for tid in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{tid}/children", encoding="ascii") as kids:
            for pid in kids.read().split():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                        if b"resource_tracker" in cmdline.read():
                            found.append(int(pid))
                except OSError:
                    continue
    return found


def test_the_resource_tracker_goes_with_the_last_idle_pool(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Issue 21 item 4: a spawned pool starts multiprocessing's resource tracker (~12 MiB),
    which outlived the pool through a whole vector backfill; the next pool starts a new one."""
    pool = processor_pool(1)
    assert pool is not None
    try:
        pool.submit(_pid).result(timeout=60)
        assert _trackers(), "the pool did not start a resource tracker"
        assert pool.stop_if_idle()
        assert not _trackers(), "the resource tracker outlived the pool"
        pool.submit(_pid).result(timeout=60)  # a fresh pool, and a fresh tracker for it
        assert _trackers()
    finally:
        pool.shutdown()
    assert not _trackers()
    assert "leaked" not in capfd.readouterr().err  # nothing was left for the tracker to clean
