"""The test Qdrant facade builds HNSW as a server does, without stopping requests: the build
works on a copy off the facade's lock (tests/qdrant_edge_build.py), searches and writes are
answered by the live shard meanwhile, and the built copy is swapped in with the writes it
missed. The build is held in progress by the facade's `build_gate`, so nothing here depends
on how long a build takes."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from tests.conftest import free_port
from tests.qdrant_server import Facade

DIM = 32
COLLECTION = "/collections/builds"
DEADLINE_S = 120.0


def vectors(n: int, seed: int) -> list[list[float]]:
    rnd = random.Random(seed)
    return [[rnd.gauss(0, 1) for _ in range(DIM)] for _ in range(n)]


def ok(answer: Any) -> Any:
    assert answer.status_code == 200, answer.text
    return answer.json()["result"]


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@contextlib.contextmanager
def serving(facade: Facade) -> Iterator[httpx.Client]:
    """The facade in this process over real HTTP (so a test can hand it a `build_gate`)."""
    port = free_port()
    config = uvicorn.Config(facade.app(), port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="facade")
    thread.start()
    try:
        wait_for(lambda: server.started or not thread.is_alive(), "the facade did not start")
        assert server.started, "the facade did not start"
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=DEADLINE_S) as client:
            yield client
    finally:
        server.should_exit = True
        thread.join()


def points(first_id: int, n: int, seed: int) -> list[dict[str, Any]]:
    return [
        {"id": first_id + i, "vector": v, "payload": {"n": first_id + i}}
        for i, v in enumerate(vectors(n, seed))
    ]


class HeldBuild:
    """The facade's build gate: the first build waits at each stage of `held` until the test
    lets it go on; other stages and later builds pass."""

    def __init__(self, held: tuple[str, ...] = ("built", "opened")) -> None:
        self.held = held
        self.reached = {stage: threading.Event() for stage in held}
        self.go_on = {stage: threading.Event() for stage in held}

    def __call__(self, name: str, stage: str) -> None:
        if stage in self.held:
            self.reached[stage].set()
            self.go_on[stage].wait(DEADLINE_S)

    def hold(self, stage: str) -> None:
        assert self.reached[stage].wait(DEADLINE_S), f"no build reached {stage!r}"

    def release_all(self) -> None:
        for event in self.go_on.values():
            event.set()


def test_searches_and_writes_go_on_while_an_index_is_built(tmp_path: Path) -> None:
    gate = HeldBuild()
    facade = Facade(tmp_path / "qdrant", indexing_threshold_kb=1, build_gate=gate)
    first, during_build, during_swap = points(0, 600, 1), points(600, 20, 2), points(620, 5, 3)
    with serving(facade) as client:

        def search(vector: list[float], limit: int) -> list[dict[str, Any]]:
            query = {"query": vector, "limit": limit, "with_payload": True}
            found: list[dict[str, Any]] = ok(client.post(f"{COLLECTION}/points/query", json=query))[
                "points"
            ]
            return found

        def indexed() -> int:
            return int(ok(client.get(COLLECTION))["indexed_vectors_count"])

        ok(client.put(COLLECTION, json={"vectors": {"size": DIM, "distance": "Cosine"}}))
        ok(client.put(f"{COLLECTION}/points", json={"points": first}))
        try:
            gate.hold("built")  # the copy has its graph; the live shard serves
            hits = search(first[7]["vector"], 5)
            assert hits[0]["id"] == 7 and len(hits) == 5
            ok(client.put(f"{COLLECTION}/points", json={"points": during_build}))
            ok(client.post(f"{COLLECTION}/points/delete", json={"points": [0, 1]}))
            assert indexed() == 0  # the built copy does not serve yet
            assert ok(client.get(COLLECTION))["status"] == "yellow"  # optimizing, as on Qdrant
            gate.go_on["built"].set()
            gate.hold("opened")  # the copy is open with those writes; not swapped in yet
            ok(client.put(f"{COLLECTION}/points", json={"points": during_swap}))
            ok(client.post(f"{COLLECTION}/points/delete", json={"points": [2]}))
            assert search(during_build[3]["vector"], 1)[0]["id"] == 603
            assert indexed() == 0
        finally:
            gate.release_all()
        wait_for(lambda: indexed() > 0, "the built index was never swapped in")
        # the index swapped in kept every write made while it was built
        assert ok(client.post(f"{COLLECTION}/points/count", json={"exact": True}))["count"] == 622
        found = ok(client.post(f"{COLLECTION}/points", json={"ids": [0, 1, 2, 3, 619, 624]}))
        assert sorted(r["id"] for r in found) == [3, 619, 624]
        assert search(during_swap[4]["vector"], 1)[0]["payload"] == {"n": 624}
    # what stays on disk is one shard folder, the one collection.json names
    folders = sorted(p.name for p in (tmp_path / "qdrant" / "builds").iterdir() if p.is_dir())
    assert len(folders) == 1, folders


def process_state(pid: int) -> str:
    """The one-letter state of a process (`T`: stopped), from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0]


def test_searches_and_writes_are_answered_while_the_graph_is_being_built(tmp_path: Path) -> None:
    """The child that builds the HNSW graph is stopped (SIGSTOP) before it can finish and the
    facade let on to wait for it: every search and write made meanwhile is answered, so none
    waits for a build."""
    gate = HeldBuild(("building",))
    facade = Facade(tmp_path / "qdrant", indexing_threshold_kb=1, build_gate=gate)
    first, during_build = points(0, 600, 1), points(600, 20, 2)
    with serving(facade) as client:
        ok(client.put(COLLECTION, json={"vectors": {"size": DIM, "distance": "Cosine"}}))
        ok(client.put(f"{COLLECTION}/points", json={"points": first}))
        pid = None
        try:
            gate.hold("building")
            pid = facade.build_pid
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)  # it has not built yet: it waits for the gate
            wait_for(lambda: process_state(pid) == "T", "the build did not stop")
            gate.go_on["building"].set()  # the facade now waits for the stopped child
            query = {"query": first[7]["vector"], "limit": 5}
            hits = ok(client.post(f"{COLLECTION}/points/query", json=query))["points"]
            assert hits[0]["id"] == 7 and len(hits) == 5
            ok(client.put(f"{COLLECTION}/points", json={"points": during_build}))
            ok(client.post(f"{COLLECTION}/points/delete", json={"points": [0, 1]}))
            info = ok(client.get(COLLECTION))
            assert (info["status"], info["indexed_vectors_count"]) == ("yellow", 0)
            # all of that was answered while the build was still under way
            assert process_state(pid) == "T"
        finally:
            if pid is not None:
                os.kill(pid, signal.SIGCONT)
            gate.release_all()
        wait_for(
            lambda: ok(client.get(COLLECTION))["indexed_vectors_count"] > 0,
            "the built index was never swapped in",
        )
        assert ok(client.post(f"{COLLECTION}/points/count", json={"exact": True}))["count"] == 618
