"""Hybrid search respells a query none of whose words a file holds as written, as keyword
search does (query_api/retrieval/unheld_words.respelled), and fuses what the respelled words
find. QA on go-playground/validator: `where is the linter configured` answered nothing by
default (no file holds `linter`; the best passage was far, so no match), while keyword search
answered .golangci.yaml and the Makefile, searched as 'linters configured'."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.vectors.test_ladder import Rig, open_rig

pytestmark = pytest.mark.anyio

FILES = {
    "lint/settings.yaml": "linters:\n  enable:\n    - govet\n    - staticcheck\n",
    "billing/invoice.py": "class InvoiceCalculator:\n    def total(self, lines):\n"
    "        return sum(line.amount for line in lines)\n",
    "net/retry.py": "def retry_with_backoff(call, attempts):\n    return call()\n",
}


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async for r in open_rig(tmp_path, files=FILES):
        yield r


async def test_hybrid_search_fuses_the_respelled_words_hits(rig: Rig) -> None:
    await rig.indexer.run_until_idle()
    answer = await rig.plane.retriever.search("repo", "linter", 5)
    assert answer.respelled == "linters", answer.respelled
    found = [h for h in answer.hits if h.entry.path == "lint/settings.yaml"]
    assert found and "content-match" in found[0].reasons, answer.hits  # BM25 found it
