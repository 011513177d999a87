"""A query with no word or number in it ("   ", "*", control characters) finds nothing and
says so. The vector plane ranked every file for it all the same (a QA pass: ten unrelated
files for "   ", a context bundle of 8,042 tokens of arbitrary code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from schemas.bundle import ContextArgs
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


async def test_a_wordless_query_has_no_hits_and_says_why(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        await rig.indexer.run_until_idle()
        service = rig.app.service
        real = await service.search(t.SearchArgs(repoId="repo", query="retry backoff"))
        assert real.mode == "semantic" and real.hits  # the plane answers real queries
        for query in ("   ", "*", "\u0000\u0001", "?!-- ..."):
            answer = await service.search(t.SearchArgs(repoId="repo", query=query))
            assert answer.hits == [], (query, [h.entry.path for h in answer.hits])
            assert answer.note is not None and "holds no word or number" in answer.note
            # no hit: the exact scan's claim is not made (spec 3.2: exact needs a hit)
            assert answer.retrievalPath == "semantic.approximate", query
        bundle = await rig.app.services.bundle.context(ContextArgs(repoId="repo", task="*"))
        assert bundle.entries == [] and bundle.responseTokens == 0
        assert bundle.note is not None and "holds no word or number" in bundle.note


async def test_one_word_among_punctuation_is_searched(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        answer = await rig.app.service.search(t.SearchArgs(repoId="repo", query="* ledger *"))
        assert [h.entry.path for h in answer.hits][:1] == ["ledger/reconcile.py"]


async def test_an_answer_without_hits_does_not_claim_the_exact_scan(tmp_path: Path) -> None:
    """A small corpus is scanned exhaustively (`semantic.exact`); an answer in which nothing
    is close enough drops every hit and claims no more than `semantic.approximate`."""
    async for rig in open_rig(tmp_path):
        await rig.indexer.run_until_idle()
        service = rig.app.service
        real = await service.search(t.SearchArgs(repoId="repo", query="retry backoff"))
        assert real.retrievalPath == "semantic.exact" and real.hits
        none = await service.search(t.SearchArgs(repoId="repo", query="zzqxv quuxplor"))
        assert none.hits == [] and none.retrievalPath == "semantic.approximate"
