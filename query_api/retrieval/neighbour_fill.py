"""The tail of a search answer filled with the neighbours of its best hits.

The first KEEP hits stay where the ranking put them (a users query's users all stay). Every
later place is re-ranked: each of the first SEEDS file hits lends each file it imports or is
used by (query_api/retrieval/file_graph.py) a share of its own score, WEIGHT divided by the
square root of its number of neighbours (a hub spreads its credit thin), and those shares add
to the neighbour's own score, or make its whole score when no list found it. So the files a
change request touches next to the one its words name move up into the answer, without
displacing the answer's head.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable

from query_api.retrieval.file_graph import Graph
from query_api.retrieval.users_first import PLACED_REASONS
from schemas import tools as t
from schemas.retrieval import MAX_REASONS

KEEP = 5
SEEDS = 5
WEIGHT = 0.4
REASON = "related:"  # + the path of the hit whose neighbour this is


def fill_tail(
    hits: list[t.SearchHit],
    graph: Graph,
    k: int,
    hydrate: Callable[[str], t.SearchHit | None],
) -> list[t.SearchHit]:
    """The best `k` of `hits` (ranked best first) with the tail re-ranked by neighbourhood;
    `hydrate` makes the hit of a neighbour no list found (None when the file is gone)."""
    top = max((hit.score for hit in hits), default=0.0)
    if top <= 0.0 or not graph:
        return hits[:k]
    lent, lender = _shares(hits, graph, top)
    kept = max(KEEP, _leading_users(hits))
    head = hits[: min(kept, k)]
    seen = {hit.entry.key for hit in head}
    for hit in head:
        lent.pop(hit.entry.path or "", None)
    tail: list[tuple[float, int, t.SearchHit | str]] = []
    for rank, hit in enumerate(hits[kept:], start=kept):
        seen.add(hit.entry.key)
        path = hit.entry.path if hit.entry.kind == "File" else None
        tail.append((hit.score / top + lent.pop(path, 0.0) if path else hit.score / top, rank, hit))
    tail += [(share, len(hits), path) for path, share in lent.items()]
    tail.sort(key=lambda item: (-item[0], item[1], _key(item[2])))
    out = list(head)
    for share, rank, item in tail:
        if len(out) >= k:
            break
        found = item if isinstance(item, t.SearchHit) else _new_hit(item, seen, hydrate)
        if found is None:
            continue
        hit = found
        moved_up = not isinstance(item, t.SearchHit) or rank > len(out)
        if moved_up and hit.entry.path in lender:  # there because of its neighbourhood
            hit = _with_reason(hit, REASON + lender[hit.entry.path])
        # scores stay non-increasing down the answer, in the lists' own scale
        ceiling = out[-1].score if out else top
        out.append(hit.model_copy(update={"score": min(share * top, ceiling)}))
    return out


def _leading_users(hits: list[t.SearchHit]) -> int:
    """How many hits at the head of a users query's answer are users of its name (their
    first reason `uses:`, users_first.py): their order is the query's, and the file
    declaring the name comes after them, though they all import it (QA on mswjs/msw: `what
    calls isObject` put isObject.ts 6th, above two of its seven users)."""
    count = 0
    while count < len(hits) and hits[count].reasons[:1] and _uses(hits[count].reasons[0]):
        count += 1
    return count


def _uses(reason: str) -> bool:
    return reason.startswith(PLACED_REASONS)


def _shares(
    hits: list[t.SearchHit], graph: Graph, top: float
) -> tuple[dict[str, float], dict[str, str]]:
    """Each neighbour's lent score (relative to the best hit) and the seed lending most."""
    lent: dict[str, float] = defaultdict(float)
    best: dict[str, tuple[float, str]] = {}
    seeds = [hit for hit in hits if hit.entry.kind == "File" and hit.entry.path][:SEEDS]
    for seed in seeds:
        path = seed.entry.path
        assert path is not None
        near = graph.get(path, frozenset())
        if not near:
            continue
        share = WEIGHT * (seed.score / top) / math.sqrt(len(near))
        for other in near:
            lent[other] += share
            if other not in best or share > best[other][0]:
                best[other] = (share, path)
    return dict(lent), {other: seed for other, (_share, seed) in best.items()}


def _new_hit(
    path: str, seen: set[str], hydrate: Callable[[str], t.SearchHit | None]
) -> t.SearchHit | None:
    hit = hydrate(path)
    if hit is None or hit.entry.key in seen:
        return None
    seen.add(hit.entry.key)
    return hit


def _with_reason(hit: t.SearchHit, reason: str) -> t.SearchHit:
    if len(hit.reasons) >= MAX_REASONS or reason in hit.reasons:
        return hit
    return hit.model_copy(update={"reasons": [*hit.reasons, reason]})


def _key(item: t.SearchHit | str) -> str:
    return item.entry.key if isinstance(item, t.SearchHit) else item
