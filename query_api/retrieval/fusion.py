"""Hybrid search's fusion of the semantic list (one hit per file, by cosine) with the keyword
list (files and memory, by BM25 with role priors and named-thing tiers).

A convex combination of the two scores, each scaled to [0, 1] within its own list: BM25 by the
best keyword score, then its square root; cosines between the list's last and first. Unlike
reciprocal rank fusion it keeps how far apart two hits are: a file whose BM25 is three times
the runner-up's, or whose cosine stands out, keeps that lead, and a file both lists like beats
one that tops only one. The square root keeps a keyword hit well below the first from counting
as nearly nothing (a request names one file's words many times and the next file's a few);
the keyword list weighs 0.6, the semantic 0.4. Both were chosen on the localisation
benchmark's tuning half (the sweep in docs/benchmarks.md); equal scores go to the better
keyword rank.
"""

from __future__ import annotations

from collections.abc import Callable

from schemas import tools as t
from schemas.retrieval import MAX_REASONS

KEYWORD_SHARE = 0.6
KEYWORD_POWER = 0.5  # BM25 / best BM25, raised to this: below 1 narrows the keyword list's gaps


def fuse(
    semantic: list[t.SearchHit],
    keyword: list[t.SearchHit],
    k: int,
    *,
    impute: bool = False,
    unembedded: Callable[[t.SearchHit], bool] | None = None,
) -> list[t.SearchHit]:
    """The best `k` hits of both lists by their combined score, each entry once (a hit in
    both carries both lists' reasons). With `impute` (vectors still backfilling), a keyword hit
    the semantic list lacks counts its keyword score in the semantic share too, so a file that
    merely has no vector yet never falls behind files that do. A keyword hit that
    `unembedded` says can have no vector (a test file when the query asks for tests) ranks
    no lower than the keyword list put it. Equal scores go to the better keyword rank, then
    the key."""
    scores: dict[str, float] = {}
    by_key: dict[str, t.SearchHit] = {}
    for hit, scaled in zip(semantic, _spread(semantic), strict=True):
        scores[hit.entry.key] = (1.0 - KEYWORD_SHARE) * scaled
        by_key[hit.entry.key] = hit
    keyword_rank: dict[str, int] = {}
    top = max((hit.score for hit in keyword), default=0.0)
    for rank, hit in enumerate(keyword):
        key = hit.entry.key
        scaled = (hit.score / top) ** KEYWORD_POWER if top > 0.0 else 0.0
        if impute and key not in by_key:
            scores[key] = (1.0 - KEYWORD_SHARE) * scaled
        scores[key] = scores.get(key, 0.0) + KEYWORD_SHARE * scaled
        keyword_rank.setdefault(key, rank)
        if key in by_key:
            old = by_key[key]
            reasons = [*old.reasons, "keyword-fused", *hit.reasons][:MAX_REASONS]
            by_key[key] = old.model_copy(update={"reasons": reasons})
        else:
            by_key[key] = hit
    unranked = len(keyword)
    ranked = sorted(scores, key=lambda key: (-scores[key], keyword_rank.get(key, unranked), key))
    if unembedded is not None:
        held = [hit.entry.key for hit in keyword if unembedded(hit)]
        ranked = _at_keyword_rank(ranked, held, keyword_rank, scores)
    return [by_key[key].model_copy(update={"score": scores[key]}) for key in ranked[:k]]


def _at_keyword_rank(
    ranked: list[str], held: list[str], keyword_rank: dict[str, int], scores: dict[str, float]
) -> list[str]:
    """`ranked` with each key of `held` (in keyword order) moved up to its keyword rank when
    the fusion put it lower: the semantic list cannot hold it, so its absence there says
    nothing against it. A moved key is scored as the one it passed (scores stay in rank
    order)."""
    for key in held:
        at, wanted = ranked.index(key), keyword_rank[key]
        if at > wanted:
            scores[key] = max(scores[key], scores[ranked[wanted]])
            ranked.insert(wanted, ranked.pop(at))
    return ranked


def _spread(hits: list[t.SearchHit]) -> list[float]:
    """Cosines scaled to [0, 1] between the list's lowest and highest: cosines of one model sit
    in a narrow band, so their raw values say little; their place within it says more."""
    if not hits:
        return []
    high = max(hit.score for hit in hits)
    low = min(hit.score for hit in hits)
    if high <= low:
        return [1.0 for _ in hits]
    return [(hit.score - low) / (high - low) for hit in hits]
