"""The files a bundle may pack: the search's hits in rank order, one per file, without the
ones only the vectors found far below the first.

In a repository with little to match (a QA pass: a tiny repository asked about "retry backoff
policy"), the search's tail is files the vectors rank because something must come next: a
5,000-function generated module at 0.14 of the first file's score, with no word of the task
in it, took 2,894 of a bundle's 3,019 tokens of code. Over the localisation benchmark's
tuning change requests no gold file ranked in the top ten that way (every gold file in ranks
2-5 scores at least 0.3 of the first; vector-only files under 0.25: 3 in 4,800 slots, none
gold), so the floor costs the ranking nothing it measures and a bundle its noise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from schemas import tools as t

# The share of the first hit's score under which a file only the vectors found is not packed.
VECTOR_ONLY_FLOOR = 0.25


@dataclass
class Candidate:
    path: str
    score: float
    reasons: list[str]
    linked: list[t.LinkedMemory] = field(default_factory=list)  # memory about this file
    passage: str | None = None  # the point id of its best passage, when vectors found it
    lines: tuple[int, int] | None = None  # the lines its search hit points at


def vector_only(reasons: list[str]) -> bool:
    """Found by the vectors alone: no word, name, path or neighbour of the task led to it."""
    return all(why == "semantic" or why.startswith("chunk:") for why in reasons)


def worth_packing(hit: t.SearchHit, top_score: float) -> bool:
    """Whether a hit may take a bundle's room (see the module doc)."""
    return not (vector_only(hit.reasons) and hit.score < VECTOR_ONLY_FLOOR * top_score)
