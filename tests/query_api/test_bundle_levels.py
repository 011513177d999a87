"""Which level `auto` keeps (query_api/context/bundle.py `_pack_levels`): the finest that
sends the best-ranked file it can, a file the session holds counting as sent."""

from __future__ import annotations

from typing import Any

import pytest

from query_api.context.bundle import BundleService, Packed
from query_api.context.candidates import Candidate
from query_api.context.spans import Focus
from schemas import bundle as b

pytestmark = pytest.mark.anyio

PATHS = ["Ky.ts", "merge.ts", "hooks.ts", "constants.ts", "retry-timing.ts", "options.ts"]


def shell() -> b.ContextResult:
    return b.ContextResult(
        repoId="ky",
        task="Improve Retry-After handling",
        mode="keyword",
        retrievalPath="keyword.no_embedder",
        detail="slices",
        budgetTokens=2000,
        totalTokens=0,
        responseTokens=2000,
        truncated=True,
        entries=[],
    )


def entry(path: str, kind: b.UnitKind) -> b.BundleEntry:
    unit = b.Unit(receipt="0" * 16, kind=kind, tokenCount=10)
    return b.BundleEntry(
        path=path, score=1.0, reasons=["content-match"], tokenCount=10, content=path, units=[unit]
    )


def packed(level: b.Detail, sent: list[str], planned: list[str], held: set[str]) -> Packed:
    kinds: dict[str, b.UnitKind] = {"slices": "span", "outline": "outline", "paths": "pointer"}
    kind = kinds[level]
    result = shell().model_copy(update={"detail": level, "entries": [entry(p, kind) for p in sent]})
    return Packed(result, 10, len(PATHS), planned, 100, held=frozenset(held))


async def test_a_file_the_session_holds_does_not_turn_auto_into_paths() -> None:
    """A session that holds the first five files' code, asking again at 2,000 tokens, was
    sent every file's path and no code (ky, "Improve Retry-After handling" at 8,192 and
    again at 2,000, 1,134 tokens of paths): the slices level acknowledged the top files and
    sent the sixth, and the paths level, sending the top file's path, counted as sending a
    better-ranked file than that. The files the session holds are acknowledged: sent."""
    by_level = {
        # Ky.ts is held whole at every share, merge.ts at the share it gets (so planned)
        "slices": packed("slices", ["options.ts"], PATHS[1:], set(PATHS[:5])),
        "outline": packed("outline", ["merge.ts"], PATHS, set()),
        "paths": packed("paths", PATHS, PATHS, set()),
    }
    service: Any = object.__new__(BundleService)
    service._pack = lambda shell, cands, level, *rest: by_level[level]
    cands = [Candidate(path, 1.0 - i / 10, ["content-match"], []) for i, path in enumerate(PATHS)]
    chosen = await service._pack_levels(
        shell(), cands, ("slices", "outline", "paths"), 10, set(), set(), Focus(frozenset())
    )
    assert chosen.result.detail == "slices"
    assert [e.path for e in chosen.result.entries] == ["options.ts"]


async def test_a_coarser_level_still_wins_when_the_finer_one_leaves_the_top_file_out() -> None:
    """Without a session, the rule stands: the paths level sending the top file beats an
    outline level that sends only a later one (encode/starlette's "cors" at 300 tokens)."""
    by_level = {
        "slices": packed("slices", [], PATHS, set()),
        "outline": packed("outline", ["options.ts"], PATHS, set()),
        "paths": packed("paths", PATHS[:2], PATHS, set()),
    }
    service: Any = object.__new__(BundleService)
    service._pack = lambda shell, cands, level, *rest: by_level[level]
    cands = [Candidate(path, 1.0 - i / 10, ["content-match"], []) for i, path in enumerate(PATHS)]
    chosen = await service._pack_levels(
        shell(), cands, ("slices", "outline", "paths"), 10, set(), set(), Focus(frozenset())
    )
    assert chosen.result.detail == "paths"
