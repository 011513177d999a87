"""Passages a file lately had are reused by content address, not embedded again
(streams/recent_vectors.py): a file deleted and restored (a branch switched away and back),
and an edit that shifts every later block of a file to the next passage index."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.vectors import file_key
from streams.recent_vectors import RecentVectors
from streams.stores.vectors import point_id
from tests.vectors.test_contentless import RecordingEmbedder, settle
from tests.vectors.test_ladder import Rig, open_rig

pytestmark = pytest.mark.anyio

TOPICS = ("invoice", "shipment", "refund", "audit")


def block(topic: str) -> str:
    """A paragraph long enough that two never share a passage (processors/vectors.py)."""
    words = " ".join(f"{topic}_{i}" for i in range(40))
    return f"def handle_{topic}(record):\n    # {topic} handling: {words}\n    return record\n"


def body(*topics: str) -> str:
    return "\n\n".join(block(topic) for topic in topics)


def stored_hashes(rig: Rig, path: str) -> list[str]:
    ids = [point_id(file_key("repo", path), i) for i in range(8)]
    found = rig.store.payloads(ids)
    return [str(found[i]["hash"]) for i in ids if i in found]


async def billing_embedded(rig: Rig, tmp_path: Path) -> tuple[RecordingEmbedder, Path]:
    """billing.py written with one block per topic and embedded, by an embedder that records
    what it is asked."""
    recorder = RecordingEmbedder()
    rig.indexer.embedder = recorder
    target = tmp_path / "ws" / "repo" / "billing.py"
    target.write_text(body(*TOPICS))
    await settle(rig, "billing.py")
    return recorder, target


async def test_a_deleted_and_restored_file_is_not_embedded_again(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        recorder, target = await billing_embedded(rig, tmp_path)
        before = stored_hashes(rig, "billing.py")
        assert len(before) == len(TOPICS)
        embedded = recorder.texts_embedded

        target.unlink()
        await settle(rig, "billing.py")
        assert stored_hashes(rig, "billing.py") == []
        target.write_text(body(*TOPICS))
        await settle(rig, "billing.py")

        assert recorder.texts_embedded == embedded  # every passage came back from the cache
        assert stored_hashes(rig, "billing.py") == before
        _, paths = await rig.search("refund handling record", k=5)
        assert "billing.py" in paths


async def test_an_edit_that_shifts_the_blocks_embeds_only_the_new_one(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        recorder, target = await billing_embedded(rig, tmp_path)
        embedded = recorder.texts_embedded

        target.write_text(body("ledger", *TOPICS))  # every block moves one index down
        await settle(rig, "billing.py")

        assert recorder.texts_embedded == embedded + 1
        assert "ledger_0" in recorder.seen[-1]
        assert len(stored_hashes(rig, "billing.py")) == len(TOPICS) + 1


def test_the_cache_is_bounded_least_recent_first_out() -> None:
    recent = RecentVectors(capacity=2)
    recent.remember([("a", [1.0, 0.0]), ("b", [0.0, 1.0])])
    recent.remember([("a", [1.0, 0.0])])  # seen again: now the most recent
    recent.remember([("c", [0.5, 0.5]), ("empty", [])])
    assert len(recent) == 2
    assert recent.get("b") is None
    assert recent.get("a") == [1.0, 0.0] and recent.get("c") == [0.5, 0.5]
