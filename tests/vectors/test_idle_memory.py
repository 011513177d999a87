"""Memory handed back once the vector step is idle (issue 21 item 4): the views' page caches
fill while a backfill and searches read and are kept for good unless emptied, so the step
empties them (and trims the allocator) when it catches up. Real pipeline, views, in-process
Qdrant and vector step; SQLite's own allocation counter says what it holds."""

from __future__ import annotations

import _sqlite3
import asyncio
import ctypes
import random
from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.store import ViewStore
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


def scan_bodies(views: ViewStore) -> int:
    """Every body: its pages go into the calling thread's reader's cache."""
    return len(views.read(lambda c: c.execute("SELECT body, path FROM content").fetchall()))


def sqlite_memory_used() -> int:
    lib = ctypes.CDLL(_sqlite3.__file__)
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return int(lib.sqlite3_memory_used())


async def test_the_views_page_caches_are_emptied_when_the_vector_step_catches_up(
    tmp_path: Path,
) -> None:
    async for rig in open_rig(tmp_path, extra=400):
        rng = random.Random(5)
        repo, bulky = tmp_path / "ws" / "repo", [f"bulk/part{i}.py" for i in range(40)]
        for i, rel in enumerate(bulky):  # 2 MB of bodies that do not compress
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            words = (f"    '{rng.getrandbits(96):024x}',\n" for _ in range(1700))
            (repo / rel).write_text(f"VALUES_{i} = [\n" + "".join(words) + "]\n")
        await rig.app.ingest.refresh("repo", bulky)
        await rig.app.runtime.run_until_idle()
        scan = partial(scan_bodies, rig.app.views)

        await asyncio.gather(*(asyncio.to_thread(scan) for _ in range(4)))
        filled = sqlite_memory_used()
        assert await rig.indexer.run_until_idle()  # the backfill: work, then caught up
        emptied = sqlite_memory_used()
        assert emptied < filled - 2_000_000, (filled, emptied)
        # and the views still answer (the caches refill on demand)
        assert await asyncio.to_thread(scan) == 444
