"""Freshness as an answer about code carries it: what an agent acts on, not every count.

Search answers, `list_repos` and health carry the whole `freshness` (vector coverage is what
decides how search ranks); an answer about the code itself (a bundle, an outline, related)
does not use the vectors, and seven coverage counts that say "complete" cost each of them
tens of tokens (a QA pass read them on every outline).
"""

from __future__ import annotations

from schemas import tools as t


def brief_freshness(fresh: t.Freshness) -> t.Freshness:
    """`fresh` as an answer about code carries it (a bundle, an outline, related): no source
    error (the health tools say why a poll failed), and vector coverage that is complete said
    in one field rather than seven counts (t.VectorsComplete). Views caught up with a log
    that answers say so by `eventsBehind` 0 alone: the offsets and a lag of 0 s tell an agent
    nothing more, and cost a small bundle a tenth of its envelope."""
    vectors = fresh.vectors
    if isinstance(vectors, t.VectorCoverage) and vectors.complete:
        vectors = t.VectorsComplete()
    update: dict[str, object] = {"sourceError": None, "vectors": vectors}
    if fresh.eventsBehind == 0 and fresh.logReachable is not False:
        update |= {"appliedOffsets": None, "logEndOffsets": None, "secondsBehind": None}
    return fresh.model_copy(update=update)
