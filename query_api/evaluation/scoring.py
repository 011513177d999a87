"""Localisation metrics, shared by `repocontext eval` and the benchmark (tests/bench/localisation).

A case is a query with a set of gold files; a system answers with a ranked list of paths.
Recall@k is the fraction of the gold files in the top k (a case with 3 gold files and 2 of them
in the top 5 scores 2/3), MRR@10 is 1/rank of the first gold file within the top 10, and
nDCG@10 uses binary gains against the ideal ranking of min(|gold|, 10) gold files first.
Aggregates are macro means over cases, so every case weighs the same whatever its gold size.
Pure functions: the same inputs always give the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

RECALL_KS = (1, 5, 10)
RANK_CUTOFF = 10
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class CaseScore:
    recall_at_1: float
    recall_at_5: float
    recall_at_10: float
    mrr_at_10: float
    ndcg_at_10: float


@dataclass(frozen=True)
class ScoreSummary:
    """Macro means over `cases` cases."""

    cases: int
    recall_at_1: float
    recall_at_5: float
    recall_at_10: float
    mrr_at_10: float
    ndcg_at_10: float


def _dedup(ranked: Sequence[str]) -> list[str]:
    """A path listed twice counts once, at its first rank."""
    return list(dict.fromkeys(ranked))


def recall_at(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    if not gold:
        raise ValueError("gold: a case needs at least one gold file")
    return len(set(_dedup(ranked)[:k]) & set(gold)) / len(set(gold))


def reciprocal_rank(ranked: Sequence[str], gold: Collection[str], k: int = RANK_CUTOFF) -> float:
    for rank, path in enumerate(_dedup(ranked)[:k], start=1):
        if path in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at(ranked: Sequence[str], gold: Collection[str], k: int = RANK_CUTOFF) -> float:
    if not gold:
        raise ValueError("gold: a case needs at least one gold file")
    dcg = sum(
        1.0 / math.log2(rank + 1)
        for rank, path in enumerate(_dedup(ranked)[:k], start=1)
        if path in gold
    )
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(set(gold)), k) + 1))
    return dcg / ideal


def score_case(ranked: Sequence[str], gold: Collection[str]) -> CaseScore:
    golden = set(gold)
    r1, r5, r10 = (recall_at(ranked, golden, k) for k in RECALL_KS)
    return CaseScore(r1, r5, r10, reciprocal_rank(ranked, golden), ndcg_at(ranked, golden))


def summarise(scores: Iterable[CaseScore]) -> ScoreSummary:
    rows = list(scores)
    n = len(rows)

    def mean(values: Iterable[float]) -> float:
        return sum(values) / n if n else 0.0

    return ScoreSummary(
        cases=n,
        recall_at_1=mean(s.recall_at_1 for s in rows),
        recall_at_5=mean(s.recall_at_5 for s in rows),
        recall_at_10=mean(s.recall_at_10 for s in rows),
        mrr_at_10=mean(s.mrr_at_10 for s in rows),
        ndcg_at_10=mean(s.ndcg_at_10 for s in rows),
    )


def summarise_by(rows: Iterable[tuple[K, CaseScore]]) -> dict[K, ScoreSummary]:
    """One summary per key (a repository, a split, a system...), keys in first-seen order."""
    groups: dict[K, list[CaseScore]] = {}
    for key, score in rows:
        groups.setdefault(key, []).append(score)
    return {key: summarise(scores) for key, scores in groups.items()}
