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


def test_writes_after_the_build_are_applied_and_after_a_reopen(tmp_path: Path) -> None:
    """The built segment records the highest operation number its writes had, and the swapped
    shard's log numbered from the start again: every delete or update of a built point was
    skipped until the numbers caught up (a QA pass: 2,000 deleted files kept their vectors).
    Many writes before the build, then deletes by filter (how a deleted file's passages go)
    and by id, and an update, each seen at once and after a reopen."""
    rnd = random.Random(5)
    store = EdgeVectorStore(tmp_path, SPACE, indexing_threshold_kb=1)
    points = [
        VectorPoint(
            point_id(f"r/f{i}", 0),
            vec(rnd),
            {"repo_id": "r", "kind": "file", "path": f"f{i}", "idx": 0, "tag": "a"},
        )
        for i in range(400)
    ]
    for batch in range(40):  # 40 operations the built segment records
        store.upsert(points[batch::40])
    assert store.build_index()
    for i in range(30):
        store.retain("r", "file", f"f{i}", [])
    store.delete_ids([point_id("r/f30", 0)])
    store.upsert([VectorPoint(points[31].id, vec(rnd), {**points[31].payload, "tag": "b"})])
    for reopened in (False, True):
        if reopened:
            store.close()
            store = EdgeVectorStore(tmp_path, SPACE, indexing_threshold_kb=1)
        assert store.count(repo_id="r", kind="file") == 400 - 31, reopened
        assert not store.payloads([point_id(f"r/f{i}", 0) for i in range(31)])
        assert store.payloads([points[31].id])[points[31].id]["tag"] == "b"
    store.close()
