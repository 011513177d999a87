"""Concurrent query embeddings share encoder calls, each caller gets its own vector, and a
failure reaches every caller of that call as a value."""

from __future__ import annotations

import asyncio
import threading

import pytest

from streams.embedders.base import EmbedResult
from streams.embedders.batching import QueryBatcher
from tests.vectors.fake_embedder import HashEmbedder

pytestmark = pytest.mark.anyio
DEADLINE_S = 30.0


class GatedEncoder:
    """One call at a time (like the local encoder), records every batch; a call stays inside
    until the test opens `gate`, so a test can queue queries while a call is running."""

    def __init__(self, *, gate_open: bool = True) -> None:
        self.inner = HashEmbedder()
        self.lock = threading.Lock()
        self.batches: list[list[str]] = []
        self.fail = False
        self.entered = threading.Event()  # a call is inside the encoder
        self.gate = threading.Event()
        if gate_open:
            self.gate.set()

    def __call__(self, texts: list[str]) -> EmbedResult:
        with self.lock:
            self.batches.append(list(texts))
            self.entered.set()
            if not self.gate.wait(timeout=DEADLINE_S):
                return EmbedResult.failed("the test never opened the gate")
            if self.fail:
                return EmbedResult.failed("encoder down")
            return self.inner.embed(texts, "query")


async def test_concurrent_queries_share_calls_and_get_their_own_vectors() -> None:
    encoder = GatedEncoder()
    batcher = QueryBatcher(encoder)
    queries = [f"query number {i % 12}" for i in range(24)]  # duplicates embed once
    results = await asyncio.gather(*(batcher.embed(q) for q in queries))
    alone = HashEmbedder().embed(sorted(set(queries)), "query")
    expected = dict(zip(sorted(set(queries)), alone.vectors, strict=True))
    assert all(r.ok and r.vectors == [expected[q]] for q, r in zip(queries, results, strict=True))
    assert batcher.calls == len(encoder.batches) <= 2  # not 24 calls in a row
    assert sum(len(b) for b in encoder.batches) == 12

    encoder.fail = True
    failed = await asyncio.gather(*(batcher.embed(q) for q in ("a", "b")))
    assert [r.error for r in failed] == ["encoder down", "encoder down"]


async def test_a_cancelled_caller_does_not_break_the_others() -> None:
    encoder = GatedEncoder(gate_open=False)
    batcher = QueryBatcher(encoder)
    first = asyncio.ensure_future(batcher.embed("keeps running"))
    assert await asyncio.to_thread(encoder.entered.wait, DEADLINE_S), "no call reached the encoder"
    doomed = asyncio.ensure_future(batcher.embed("cancelled"))
    survivor = asyncio.ensure_future(batcher.embed("survives"))
    await asyncio.sleep(0)  # one loop turn: both are queued behind the running call
    doomed.cancel()
    encoder.gate.set()
    assert (await first).ok and (await survivor).ok
    assert ["cancelled"] not in encoder.batches and encoder.batches[-1] == ["survives"]
