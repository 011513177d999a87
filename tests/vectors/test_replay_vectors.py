"""Replay re-consumes the vector projection too: every passage is re-verified by its content
address and nothing unchanged is embedded again while the store survives."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


async def test_rewound_vectors_are_reused_not_re_embedded(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path, extra=5):
        await rig.indexer.run_until_idle()
        embedded = rig.indexer.counters.passages_embedded
        calls = rig.embedder.calls
        points = rig.store.count(repo_id="repo")
        assert embedded > 0 and points > 0
        reused = rig.indexer.counters.passages_reused

        await rig.indexer.rewind()
        assert await rig.indexer.behind() > 0  # the group really starts over
        await rig.indexer.run_until_idle()

        assert rig.indexer.counters.passages_embedded == embedded
        assert rig.embedder.calls == calls  # the encoder was not asked again
        assert rig.indexer.counters.passages_reused - reused >= embedded
        assert rig.store.count(repo_id="repo") == points
        assert await rig.indexer.behind() == 0
