"""The in-process Qdrant shard's mapped files leave the server's RSS when it is idle (issue 21
item 4) and nothing is lost: answers, counts, later writes and a reopened store are the same.
Real in-process Qdrant; the process's own /proc/self/smaps says what is resident."""

from __future__ import annotations

import random
import re
from pathlib import Path

from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import EdgeVectorStore, VectorPoint, point_id

DIM = 64


def resident_kib(folder: Path) -> int:
    """RSS of this process's mappings of files under `folder`."""
    total, inside = 0, False
    with open("/proc/self/smaps", encoding="utf-8", errors="replace") as f:
        for line in f:
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                parts = line.split(maxsplit=5)
                inside = len(parts) == 6 and parts[5].strip().startswith(str(folder))
            elif inside and line.startswith("Rss:"):
                total += int(line.split()[1])
    return total


def unit(rng: random.Random) -> list[float]:
    v = [rng.gauss(0.0, 1.0) for _ in range(DIM)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


def points(rng: random.Random, n: int, offset: int = 0) -> list[VectorPoint]:
    out = []
    for i in range(offset, offset + n):
        path = f"pkg/mod{i // 4}.py"
        key = f"repo/r/file/{path}"
        payload = {"repo_id": "r", "kind": "file", "source_key": key, "path": path, "idx": i % 4}
        out.append(VectorPoint(point_id(key, i % 4), unit(rng), payload | {"hash": str(i)}))
    return out


def test_an_idle_store_drops_its_mapped_pages_and_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(7)
    space = EmbeddingSpace("test/space", DIM)
    store = EdgeVectorStore(tmp_path / "vectors", space)
    try:
        for start in range(0, 4000, 200):
            store.upsert(points(rng, 200, start))
        query = unit(rng)
        answer = [m.id for m in store.search(query, 20, repo_id="r", exact=True)]
        assert resident_kib(tmp_path) > 1024  # the WAL and the vectors it wrote and read

        assert store.release_mapped() > 0
        assert resident_kib(tmp_path) < 256
        assert [m.id for m in store.search(query, 20, repo_id="r", exact=True)] == answer
        assert store.count(repo_id="r", kind="file") == 4000

        store.upsert(points(rng, 100, 4000))  # writes after the drop land and persist
        answer = [m.id for m in store.search(query, 20, repo_id="r", exact=True)]
    finally:
        store.close()
    reopened = EdgeVectorStore(tmp_path / "vectors", space)
    try:
        assert reopened.count(repo_id="r", kind="file") == 4100
        assert [m.id for m in reopened.search(query, 20, repo_id="r", exact=True)] == answer
    finally:
        reopened.close()
