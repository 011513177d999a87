"""The HNSW build child (issue 21 item 4): it builds from a copy of the flushed shard without
the write-ahead log (whose replay was tens of MiB of the child's RSS) and loses nothing: the
writes and deletes just before the build, still only in the log, are in the built index and
after a reopen. Real qdrant-edge, real child process."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import EdgeVectorStore, VectorPoint, point_id

SPACE = EmbeddingSpace("test/model", 8, True)


def vec(rnd: random.Random) -> list[float]:
    return [rnd.gauss(0, 1) for _ in range(SPACE.dimension)]


def point(i: int, rnd: random.Random, tag: str = "a") -> VectorPoint:
    return VectorPoint(
        point_id("r/x", i), vec(rnd), {"repo_id": "r", "kind": "file", "idx": i, "tag": tag}
    )


def test_the_build_keeps_every_write_and_delete_made_just_before_it(tmp_path: Path) -> None:
    rnd = random.Random(3)
    store = EdgeVectorStore(tmp_path, SPACE, indexing_threshold_kb=1)
    store.upsert([point(i, rnd) for i in range(300)])
    store.flush()
    store.upsert([point(i, rnd, "b") for i in range(290, 300)])  # changed after the flush
    store.delete_ids([point_id("r/x", i) for i in range(10)])
    store.upsert([point(i, rnd) for i in range(300, 320)])
    assert store.build_index()
    state = store.state()
    assert state.points == 310 and state.indexed == 310
    late = store.payloads([point_id("r/x", 295), point_id("r/x", 5), point_id("r/x", 310)])
    assert late[point_id("r/x", 295)]["tag"] == "b"
    assert point_id("r/x", 5) not in late and point_id("r/x", 310) in late
    store.upsert([point(400, rnd)])  # the built shard takes writes (a log of its own)
    store.close()
    reopened = EdgeVectorStore(tmp_path, SPACE, indexing_threshold_kb=1)
    try:
        assert reopened.state().points == 311
        assert reopened.payloads([point_id("r/x", 295)])[point_id("r/x", 295)]["tag"] == "b"
    finally:
        reopened.close()


def test_the_build_child_gets_no_copy_of_the_write_ahead_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(5)
    store = EdgeVectorStore(tmp_path, SPACE)
    store.upsert([point(i, rnd) for i in range(50)])
    seen: list[set[str]] = []
    real_run = subprocess.run

    def spy(args: list[str], **kwargs: Any) -> Any:
        seen.append({p.name for p in Path(args[-1]).iterdir()})
        return real_run(args, **kwargs)

    monkeypatch.setattr(subprocess, "run", spy)
    try:
        assert store.build_index()
        assert store.state().points == 50
    finally:
        store.close()
    assert seen and "segments" in seen[0] and "wal" not in seen[0]
