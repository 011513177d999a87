"""A processor worker that dies (the OOM killer, a stray SIGKILL) must not stop indexing: the
pool it breaks refuses every later task, so the step failed forever ("step symbols has failed
5820 times in a row"). The next task starts a new pool. Real spawned workers."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import RepoRegistration
from streams.eventlog.base import LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.pool import processor_pool
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from tests.streams.test_runtime import open_log, upsert


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


@pytest.mark.anyio
async def test_a_worker_killed_in_a_batch_is_one_line_and_the_step_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`timeout 60 repocontext index PATH` (and systemd, `kill -TERM -PGID`) sends SIGTERM to
    the whole process group: the workers die under a batch in flight, and each step logged
    `step structural failed; retrying after a pause` with a BrokenProcessPool traceback, 35
    lines of stderr for one signal. One WARNING line per step now; the retry runs on a new
    pool and the views complete. The worker is stopped (SIGSTOP) so the batch is surely in
    flight when it dies."""
    log = await open_log("sqlite", tmp_path)
    registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
    await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
    await log.append(topics.FILES.name, [upsert(f"m{n}.py", f"def f{n}(): pass") for n in range(5)])
    views = ViewStore(tmp_path / "views.db", default_registry())
    pool = processor_pool(1)
    assert pool is not None
    worker = pool.submit(_pid).result(timeout=60)
    os.kill(worker, signal.SIGSTOP)
    stop = asyncio.Event()
    runtime = EmbeddedRuntime(log, views, executor=pool)
    running = asyncio.create_task(runtime.run_forever(stop))
    try:
        await asyncio.sleep(0.5)  # the first processor batch waits on the stopped worker
        os.kill(worker, signal.SIGTERM)
        os.kill(worker, signal.SIGCONT)
        deadline = time.monotonic() + 60
        while views.file_count("r") < 5 or (await runtime.lag()).behind:
            assert time.monotonic() < deadline and not running.done(), caplog.text[-2000:]
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await running
        pool.shutdown()
        views.close()
        await log.close()
    failures = [r for r in caplog.records if r.name == "streams.runtime.embedded"]
    assert failures, "the worker's death was not noticed"
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in failures), caplog.text
