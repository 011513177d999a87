"""Each benchmark system as one `rank(query) -> ranked paths` callable over a checkout.

repocontext's systems come from tests/bench/localisation/system.py (imported only when one is
asked for, so the baselines run on their own); `default` and `bundle` share one index with
the local embedder. Baseline corpora and the MiniLM model are built once per repository/run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.localisation.baselines import BM25, corpus_files, rrf
from tests.bench.localisation.dense import SEARCH_POOL, DenseIndex, load_model

Rank = Callable[[str], Awaitable[list[str]]]
SYSTEMS = ("keyword", "default", "bundle", "bm25", "dense", "rrf")
SEARCH_K = 50
BASELINES = {"bm25", "dense", "rrf"}
EMBEDDED = {"default", "bundle"}


@dataclass
class OpenRankers:
    rankers: dict[str, Rank] = field(default_factory=dict)
    open_s: dict[str, float] = field(default_factory=dict)
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    async def close(self) -> None:
        for close in reversed(self.closers):
            await close()


@dataclass
class SharedModel:
    """The MiniLM encoder, loaded on first use and kept for the whole run."""

    model: Any = None

    def get(self) -> Any:
        if self.model is None:
            self.model = load_model()
        return self.model


def _sync(fn: Callable[[str], list[str]]) -> Rank:
    async def rank(query: str) -> list[str]:
        return fn(query)

    return rank


def _baselines(names: set[str], root: Path, cache: Path, key: str, shared: SharedModel,
               opened: OpenRankers) -> None:  # fmt: skip
    began = time.perf_counter()
    files = corpus_files(root)
    bm25 = BM25(files) if names & {"bm25", "rrf"} else None
    opened.open_s["bm25"] = time.perf_counter() - began
    dense = None
    if names & {"dense", "rrf"}:
        began = time.perf_counter()
        dense = DenseIndex(files, shared.get(), cache / "dense" / f"{key}.npy", key)
        opened.open_s["dense"] = time.perf_counter() - began
    if bm25 is not None:
        opened.rankers["bm25"] = _sync(lambda q: bm25.rank(q, SEARCH_K))
    if dense is not None:
        opened.rankers["dense"] = _sync(lambda q: dense.rank(q, SEARCH_K))
    if bm25 is not None and dense is not None:
        opened.rankers["rrf"] = _sync(
            lambda q: rrf([bm25.rank(q, SEARCH_POOL), dense.rank(q, SEARCH_POOL)], SEARCH_K)
        )


async def _repocontext(names: set[str], root: Path, cache: Path, key: str,
                       opened: OpenRankers) -> None:  # fmt: skip
    from tests.bench.localisation.system import RepocontextSystem  # the lead's module

    if "keyword" in names:
        began = time.perf_counter()
        keyword = await RepocontextSystem.open(root, cache / "systems" / "keyword" / key)
        opened.closers.append(keyword.close)
        opened.open_s["keyword"] = time.perf_counter() - began
        opened.rankers["keyword"] = lambda q: keyword.search(q, SEARCH_K)
    if names & EMBEDDED:
        began = time.perf_counter()
        data_dir = cache / "systems" / "local" / key
        hybrid = await RepocontextSystem.open(root, data_dir, embedder="local")
        opened.closers.append(hybrid.close)
        opened.open_s["default"] = time.perf_counter() - began
        opened.rankers["default"] = lambda q: hybrid.search(q, SEARCH_K)
        opened.rankers["bundle"] = lambda q: hybrid.context_paths(q)


async def open_rankers(
    names: list[str], root: Path, cache: Path, key: str, shared: SharedModel
) -> OpenRankers:
    """Every named system over the checkout `root`, ready to rank."""
    opened = OpenRankers()
    wanted = set(names)
    try:
        if wanted & BASELINES:
            await asyncio.to_thread(_baselines, wanted, root, cache, key, shared, opened)
        if wanted - BASELINES:
            await _repocontext(wanted, root, cache, key, opened)
    except BaseException:
        await opened.close()
        raise
    return opened
