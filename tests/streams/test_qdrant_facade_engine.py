"""The test Qdrant facade runs Qdrant's own engine (tests/qdrant_server.py over qdrant-edge):
through our adapter over HTTP, payload indexes are real, the optimizer builds HNSW in the
background once a segment passes the indexing threshold (so the store's arm turns
`approximate` as on a server), approximate search agrees with exact search, and a restarted
facade keeps collections, points and graph. A request outside the facade's subset is a 400
that names what is not supported."""

from __future__ import annotations

import random
import time
from pathlib import Path

import httpx
import pytest

from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import QdrantClientVectorStore, VectorPoint, point_id
from tests.qdrant_server import QdrantServer

SPACE = EmbeddingSpace("facade-engine", 32, True)


def corpus(n: int = 2000, dim: int = 32) -> list[list[float]]:
    rnd = random.Random(5)
    centres = [[rnd.gauss(0, 1) for _ in range(dim)] for _ in range(20)]
    return [[c + rnd.gauss(0, 0.15) for c in centres[i % 20]] for i in range(n)]


def wait_until_indexed(store: QdrantClientVectorStore, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while store.state().arm != "approximate":
        assert time.monotonic() < deadline, f"no HNSW graph in time: {store.state()}"
        time.sleep(0.05)


@pytest.mark.slow
def test_the_facade_builds_hnsw_in_the_background_and_keeps_it(tmp_path: Path) -> None:
    data = corpus()
    points = [
        VectorPoint(point_id(f"r{i % 2}/f{i}.py", 0), v, {"repo_id": f"r{i % 2}", "kind": "file"})
        for i, v in enumerate(data)
    ]
    server = QdrantServer(tmp_path / "qdrant", indexing_threshold_kb=1, full_scan_threshold_kb=1)
    with server:
        store = QdrantClientVectorStore(SPACE, url=server.url)
        store.upsert(points)
        wait_until_indexed(store)
        state = store.state()
        assert state.points == len(points) and state.indexed >= len(points) // 2, state
        # the payload indexes our adapter asked for exist in the engine, over every point
        schema = store.client.get_collection(SPACE.collection).payload_schema
        assert schema["repo_id"].points == len(points) and schema["kind"].points == len(points)
        rnd = random.Random(9)
        agree = 0.0
        for _ in range(50):
            query = [x + rnd.gauss(0, 0.1) for x in data[rnd.randrange(len(data))]]
            exact = {h.id for h in store.search(query, 10, repo_id="r0", exact=True)}
            approx = store.search(query, 10, repo_id="r0", exact=False)
            assert all(h.payload["repo_id"] == "r0" for h in approx)
            agree += len(exact & {h.id for h in approx}) / 10
        assert agree / 50 >= 0.9
        store.close()
    with server:  # the same directory: collections, points and the graph are still there
        store = QdrantClientVectorStore(SPACE, url=server.url)
        after = store.state()
        assert (after.points, after.arm) == (len(points), "approximate"), after
        assert store.count(repo_id="r1") == len(points) // 2
        store.close()


def test_a_request_outside_the_subset_is_refused_by_name(tmp_path: Path) -> None:
    with QdrantServer(tmp_path / "qdrant") as server:
        store = QdrantClientVectorStore(SPACE, url=server.url)
        store.upsert([VectorPoint(point_id("r/a.py", 0), [1.0] * 32, {"repo_id": "r"})])
        store.close()
        url = f"{server.url}/collections/{SPACE.collection}/points/query"
        answer = httpx.post(url, json={"query": [1.0] * 32, "using": "dense"}, timeout=10)
        assert answer.status_code == 400
        assert "does not support" in answer.json()["status"]["error"]
        answer = httpx.put(
            f"{server.url}/collections/{SPACE.collection}/points",
            json={"points": [{"id": 1, "vector": [1.0] * 3}]},
            timeout=10,
        )  # the engine's own check: a wrong dimension
        assert answer.status_code == 400 and "dim" in answer.json()["status"]["error"]
