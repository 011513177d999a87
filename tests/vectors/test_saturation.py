"""`saturated_unavailable` (spec §5.1) from a real code path: the exact scan stalls past its
budget, the breaker withholds it, and the health tool says the plane is refused at current
capacity, then clears by itself once the scan answers in time again."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from schemas.retrieval import RetrievalPath
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


async def test_breaker_refusal_is_saturated_unavailable(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path, exact_timeout_s=0.0):
        await rig.indexer.run_until_idle()
        readiness = rig.plane.readiness
        readiness.hold_down_s = 0.0  # judge at once instead of after 30 s
        rig.app.service.readiness = readiness  # the health tool reads the rig's plane
        await rig.search("ledger")  # the exact scan overruns its 0 s budget: breaker opens
        path, _ = await rig.search("ledger")
        assert path == RetrievalPath.KEYWORD_EXACT_FALLBACK_SUPPRESSED
        health = await rig.app.service.health(t.NoArgs())
        assert health.retrievalPhase == "saturated_unavailable"
        assert health.retrievalReady is False and "capacity" in health.status

        rig.plane.retriever.exact_timeout_s = 30.0  # capacity back: the probe answers in time
        rig.plane.retriever.breaker.open_seconds = 0.0  # its open period has elapsed
        path, _ = await rig.search("ledger")
        assert path == RetrievalPath.SEMANTIC_EXACT
        health = await rig.app.service.health(t.NoArgs())
        assert (health.retrievalPhase, health.retrievalReady) == ("serving", True)
