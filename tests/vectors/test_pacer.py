"""The foreground lease: embedding batches wait while tool calls are in flight, and the
backfill still progresses (in short batches) when the calls never stop."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from streams.embedders.base import EmbedResult, TextType
from streams.pacer import ForegroundPacer
from tests.vectors.fake_embedder import HashEmbedder
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


async def test_a_call_waiting_on_the_background_steps_aside() -> None:
    """A refresh waiting for its file's vectors held its lease, so the batch it waited for
    waited `max_defer_s` for it (every refresh(waitForVectors) took 6.2 s on koa)."""
    pacer = ForegroundPacer(quiet_s=0.05, max_defer_s=5.0)
    heard: list[bool] = []
    pacer.on_hold.append(heard.append)
    with pacer.lease():
        with pacer.aside():
            started = time.monotonic()
            assert await pacer.wait_turn()  # the batch goes after the quiet moment
            assert time.monotonic() - started < 5.0
        assert pacer.active == 1 and not pacer.quiet()  # the call goes on in the foreground
    assert pacer.active == 0
    assert heard == [True, False, True, False]


async def test_wait_turn_waits_for_a_quiet_moment_and_never_forever() -> None:
    pacer = ForegroundPacer(quiet_s=0.05, max_defer_s=0.3)
    assert await pacer.wait_turn()  # nobody calling: go at once
    with pacer.lease():
        started = time.monotonic()
        assert not await pacer.wait_turn()  # a call that outlasts the deferral: go anyway
        assert time.monotonic() - started >= 0.3
    lease = pacer.lease()
    lease.__enter__()
    asyncio.get_running_loop().call_later(0.1, lease.__exit__, None, None, None)
    assert await pacer.wait_turn()  # quiet 0.05 s after the call ended
    assert pacer.active == 0 and pacer.deferrals == 2


class TimedEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.timeline: list[tuple[float, int]] = []

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        self.timeline.append((time.monotonic(), len(texts)))
        return super().embed(texts, kind)


async def test_backfill_batches_wait_while_a_tool_call_runs(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        pacer = ForegroundPacer(quiet_s=0.05, max_defer_s=0.5)
        embedder = TimedEmbedder()
        rig.indexer.embedder, rig.indexer.pacer = embedder, pacer
        repo = tmp_path / "ws" / "repo"
        for i in range(12):
            (repo / f"extra{i}.py").write_text(f"def extra_{i}():\n    return {i}\n")
        await rig.app.ingest.refresh("repo", None)
        await rig.app.runtime.run_until_idle()
        with pacer.lease():  # an agent's call in flight for 0.3 s
            held_from = time.monotonic()
            backfill = asyncio.ensure_future(rig.indexer.run_until_idle())
            await asyncio.sleep(0.3)
            held_to = time.monotonic()
        await backfill
        assert embedder.timeline, "the backfill embedded nothing"
        assert not [t for t, _ in embedder.timeline if held_from <= t < held_to]
        assert pacer.deferrals >= 1
