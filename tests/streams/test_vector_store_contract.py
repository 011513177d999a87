"""One contract suite for every VectorStore adapter: in-process Qdrant (qdrant-edge), and
qdrant-client both in its local mode and over HTTP against tests/qdrant_server.py (a REST facade
over qdrant-edge, the engine a Qdrant server runs), plus ANN recall against the exact oracle.

Opt-in: with REPOCONTEXT_TEST_QDRANT_URL naming a real Qdrant server (and
REPOCONTEXT_TEST_QDRANT_API_KEY when it wants one) the suite also runs against it, each test in
a collection of its own that is deleted afterwards; without it those cases are skipped.
"""

from __future__ import annotations

import math
import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import (
    EdgeVectorStore,
    QdrantClientVectorStore,
    VectorPoint,
    VectorStore,
    point_id,
)
from tests.qdrant_server import QdrantServer

SPACE = EmbeddingSpace("test-model", 8, True)


def vec(seed: int, dim: int = 8) -> list[float]:
    rnd = random.Random(seed)
    return [rnd.uniform(-1, 1) for _ in range(dim)]


def point(repo: str, source: str, idx: int, seed: int, kind: str = "file") -> VectorPoint:
    return VectorPoint(
        id=point_id(f"{repo}/{source}", idx),
        vector=vec(seed),
        payload={
            "repo_id": repo,
            "kind": kind,
            "source_key": f"{repo}/{source}",
            "path": source,
            "idx": idx,
            "hash": f"h{seed}",
        },
    )


@pytest.fixture(scope="module")
def qdrant_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[QdrantServer]:
    """One facade process for the module; each test gets its own collection."""
    with QdrantServer(tmp_path_factory.mktemp("qdrant") / "storage") as server:
        yield server


REAL_QDRANT_URL = os.environ.get("REPOCONTEXT_TEST_QDRANT_URL")  # opt-in: a real server


@pytest.fixture(params=["edge", "qdrant-client", "qdrant-server", "qdrant-real"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorStore]:
    s: VectorStore
    if request.param == "qdrant-real":
        if not REAL_QDRANT_URL:
            pytest.skip("REPOCONTEXT_TEST_QDRANT_URL names no real Qdrant server")
        space = EmbeddingSpace(f"contract-{uuid.uuid4().hex[:12]}", SPACE.dimension, True)
        api_key = os.environ.get("REPOCONTEXT_TEST_QDRANT_API_KEY")
        real = QdrantClientVectorStore(space, url=REAL_QDRANT_URL, api_key=api_key)
        yield real
        real.client.delete_collection(space.collection)
        real.close()
        return
    if request.param == "edge":
        s = EdgeVectorStore(tmp_path / "vectors", SPACE)
    elif request.param == "qdrant-client":
        s = QdrantClientVectorStore(SPACE, location=":memory:")
    else:
        server: QdrantServer = request.getfixturevalue("qdrant_server")
        space = EmbeddingSpace(f"test-model-{request.node.name}", SPACE.dimension, True)
        s = QdrantClientVectorStore(space, url=server.url)
    yield s
    s.close()


def test_upsert_search_payloads(store: VectorStore) -> None:
    pts = [point("r", f"f{i}.py", 0, i) for i in range(20)]
    store.upsert(pts)
    assert store.count() == 20
    assert store.count(repo_id="r", kind="file") == 20
    for exact in (True, False):
        hits = store.search(pts[3].vector, 5, repo_id="r", exact=exact)
        assert hits[0].id == pts[3].id
        assert hits[0].payload["source_key"] == "r/f3.py"
        assert hits[0].score == pytest.approx(1.0, abs=1e-4)
    got = store.payloads([pts[0].id, point_id("r/missing", 0)])
    assert list(got) == [pts[0].id] and got[pts[0].id]["hash"] == "h0"


def test_points_come_back_with_their_vectors(store: VectorStore) -> None:
    """What the vector step reuses by content address: the stored vector and payload of
    each id present, nothing for an id that is not."""
    pts = [point("r", "a.py", i, i + 3) for i in range(3)]
    store.upsert(pts)
    got = {p.id: p for p in store.points([pts[2].id, point_id("r/missing", 0), pts[0].id])}
    assert set(got) == {pts[0].id, pts[2].id}
    for sent in (pts[0], pts[2]):
        norm = math.sqrt(sum(x * x for x in sent.vector))  # a cosine space stores unit vectors
        assert got[sent.id].vector == pytest.approx([x / norm for x in sent.vector], abs=1e-5)
        assert got[sent.id].payload["hash"] == sent.payload["hash"]
    assert store.points([]) == []


def test_upsert_is_idempotent_by_id(store: VectorStore) -> None:
    for _ in range(6):
        store.upsert([point("r", "a.py", 0, 1), point("r", "a.py", 1, 2)])
    assert store.count(repo_id="r") == 2
    assert store.sources(repo_id="r", kind="file") == 1


def test_repo_filter_and_deletes(store: VectorStore) -> None:
    store.upsert([point("r1", "a.py", i, i) for i in range(4)])
    store.upsert([point("r2", "a.py", 0, 0), point("r2", "s", 0, 9, kind="symbol")])
    hits = store.search(vec(0), 10, repo_id="r2", exact=True)
    assert {h.payload["repo_id"] for h in hits} == {"r2"}
    assert store.sources(repo_id="r2", kind="symbol") == 1
    store.retain("r1", "file", "a.py", [point_id("r1/a.py", 0), point_id("r1/a.py", 1)])
    assert store.count(repo_id="r1") == 2
    store.retain("r2", "symbol", "s", [])
    assert store.count(repo_id="r2") == 1
    store.upsert([point("r2", "s", 0, 9, kind="symbol")])
    store.delete_ids([point_id("r1/a.py", 1)])
    assert store.count(repo_id="r1") == 1
    store.delete_repo("r1")
    assert store.count(repo_id="r1") == 0 and store.count(repo_id="r2") == 2


def test_contentless_markers_are_stored_but_never_searched_or_counted(
    store: VectorStore,
) -> None:
    marker = point("r", "empty.txt", -1, 5, kind="contentless")
    store.upsert([point("r", "a.py", 0, 1), marker])
    assert store.payloads([marker.id])[marker.id]["kind"] == "contentless"
    assert store.count(repo_id="r") == 1 and store.count() == 1
    assert store.count(repo_id="r", kind="contentless") == 1
    for exact in (True, False):  # even a query equal to the marker's own vector misses it
        assert [h.id for h in store.search(marker.vector, 10, repo_id="r", exact=exact)] == [
            point_id("r/a.py", 0)
        ]
    assert store.state().points == 2  # the engine holds it all the same


def test_state_arms(store: VectorStore) -> None:
    assert store.state().arm == "bootstrapping"
    store.upsert([point("r", "a.py", 0, 1)])
    assert store.state().arm == "exhaustive"


def test_edge_survives_reopen(tmp_path: Path) -> None:
    s = EdgeVectorStore(tmp_path, SPACE)
    s.upsert([point("r", "a.py", 0, 1)])
    s.close()
    s = EdgeVectorStore(tmp_path, SPACE)
    assert s.count() == 1
    s.close()


# -- ANN recall against the exact oracle (3,000 vectors, 32 dims, 200 queries, seeded) --------


def _corpus(clustered: bool, n: int = 3000, dim: int = 32) -> list[list[float]]:
    rnd = random.Random(7)
    if not clustered:
        return [[rnd.gauss(0, 1) for _ in range(dim)] for _ in range(n)]
    centres = [[rnd.gauss(0, 1) for _ in range(dim)] for _ in range(30)]
    return [[c + rnd.gauss(0, 0.15) for c in centres[i % 30]] for i in range(n)]


@pytest.mark.parametrize(("clustered", "floor"), [(True, 0.95), (False, 0.55)])
def test_ann_recall_at_10(tmp_path: Path, clustered: bool, floor: float) -> None:
    space = EmbeddingSpace("recall", 32, True)
    s = EdgeVectorStore(tmp_path, space, indexing_threshold_kb=1)
    data = _corpus(clustered)
    s.upsert(
        [
            VectorPoint(point_id("r/x", i), v, {"repo_id": "r", "kind": "file", "idx": i})
            for i, v in enumerate(data)
        ]
    )
    assert s.state().arm == "exhaustive"
    assert s.build_index()
    assert s.state().arm == "approximate"
    rnd = random.Random(11)
    queries = [[x + rnd.gauss(0, 0.1) for x in data[rnd.randrange(len(data))]] for _ in range(200)]
    total = 0.0
    for q in queries:
        exact = {h.id for h in s.search(q, 10, repo_id="r", exact=True)}
        approx = {h.id for h in s.search(q, 10, repo_id="r", exact=False)}
        total += len(exact & approx) / 10
    s.close()
    assert total / len(queries) >= floor
