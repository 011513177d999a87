"""Memory handed back once the vector step is idle (issue 21 item 4): the views' page caches
fill while a backfill and searches read and are kept for good unless emptied, so the step
empties them (and trims the allocator) when it catches up. Real pipeline, views, in-process
Qdrant and vector step; SQLite's own allocation counter says what it holds."""

from __future__ import annotations

import _sqlite3
import asyncio
import ctypes
import random
import threading
from functools import partial
from pathlib import Path

import pytest

import streams.vectors_step
from streams.stores.views.store import ViewStore
from streams.vectors_step import VectorCounters
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


def scan_bodies(views: ViewStore) -> int:
    """Every body: its pages go into the calling thread's reader's cache."""
    return len(views.read(lambda c: c.execute("SELECT body, path FROM content").fetchall()))


def record_progress(into: list[int], counters: VectorCounters) -> None:
    into.append(counters.passages_embedded)


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


async def test_a_long_backfill_releases_memory_as_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not only once caught up: the caches and mapped pages a backfill fills were held beside
    the encoder child through the whole backfill, the server's memory peak."""
    monkeypatch.setattr(streams.vectors_step, "RECORD_BATCH", 8)
    monkeypatch.setattr(streams.vectors_step, "RELEASE_EVERY_S", 0.0)
    async for rig in open_rig(tmp_path, extra=40):
        released: list[int] = []
        counters = rig.indexer.counters
        rig.indexer.on_idle = partial(record_progress, released, counters)
        stop = asyncio.Event()
        loop = asyncio.ensure_future(rig.indexer.run_forever(stop))
        try:
            async with asyncio.timeout(60):
                while await rig.indexer.behind() or not released:
                    await asyncio.sleep(0.05)
        finally:
            stop.set()
            await loop
        assert len(released) > 2 and released[0] < released[-1], released


async def test_releases_come_between_the_embedding_batches_of_one_record_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One record batch of large files is minutes of embedding on Django: a release only
    after each record batch let the server's caches and mapped pages grow for 2-3 minutes."""
    monkeypatch.setattr(streams.vectors_step, "EMBED_BATCH", 2)
    monkeypatch.setattr(streams.vectors_step, "RELEASE_EVERY_S", 0.0)
    async for rig in open_rig(tmp_path, extra=20):
        released: list[int] = []
        counters = rig.indexer.counters
        rig.indexer.on_idle = partial(record_progress, released, counters)
        assert await rig.indexer.run_once()  # one record batch per topic-partition
        assert len(released) > 2 and released[0] < released[-1], released


async def test_a_backfill_batch_waits_for_a_keyword_index_build(tmp_path: Path) -> None:
    """While the views build an in-memory keyword index (old and new postings held at once),
    no embedding batch starts (nor the encoder child with it); once it is done, what it freed
    is handed back before the batch."""
    async for rig in open_rig(tmp_path, extra=4):
        building = threading.Event()
        building.set()
        released: list[int] = []
        counters = rig.indexer.counters
        rig.indexer.keyword_building = building.is_set
        rig.indexer.on_idle = partial(record_progress, released, counters)
        run = asyncio.ensure_future(rig.indexer.run_once())
        await asyncio.sleep(1.0)
        assert counters.passages_embedded == 0 and not run.done()
        building.clear()
        async with asyncio.timeout(60):
            assert await run
        assert released and released[0] == 0, released
        assert counters.passages_embedded > 0


async def test_a_failing_keyword_build_hook_does_not_stop_the_backfill(tmp_path: Path) -> None:
    """The views closing under the hook (or an SQLite error in its read) only costs the wait."""
    async for rig in open_rig(tmp_path, extra=4):

        def closed() -> bool:
            raise RuntimeError("the view store is closed")

        rig.indexer.keyword_building = closed
        assert await rig.indexer.run_once()
        assert rig.indexer.counters.passages_embedded > 0
