"""A search over every repository: one ranked answer from the answers of several searches.

The same merge serves two callers: the service, which searches each repository the caller
may read and merges the per-repository answers, and a sharded query replica
(repocontext/shard_routing.py), which merges its own every-repository answer with the other
shards'. Hits merge by score (highest first, then by their rank in their own answer; a key
seen twice keeps its best hit, so an answer that two shards both gave during a reassignment
counts once) and the list is cut to `k`. Scores of different repositories come from
different collections (BM25's document frequencies are per repository), so the order across
repositories is approximate; within one repository it is that repository's own ranking.
"""

from __future__ import annotations

from collections.abc import Sequence

from query_api.core.index_build import building_note
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode


def merge_search_answers(
    query: str,
    k: int,
    answers: Sequence[t.SearchResult],
    freshness: t.Freshness | None = None,
) -> t.SearchResult:
    """One every-repository answer: the best `k` hits of `answers` by score, deduplicated by
    entry key; `mode` and `retrievalPath` of the answer the top hit came from (else of the
    first answer), the repositories searched in id order, `freshness` as given."""
    best: dict[str, tuple[t.SearchHit, t.SearchResult, int]] = {}
    for answer in answers:
        for rank, hit in enumerate(answer.hits):
            seen = best.get(hit.entry.key)
            if seen is None or hit.score > seen[0].score:
                best[hit.entry.key] = (hit, answer, rank)
    # of hits scoring the same, the one its own answer ranks higher first: a repository
    # places hits tying on score in its own order (`what calls X` gives its users the top
    # score, the declaring file below them), which the key alone had put in path order
    ranked = sorted(best.values(), key=lambda it: (-it[0].score, it[2], it[0].entry.key))[:k]
    lead = ranked[0][1] if ranked else (answers[0] if answers else None)
    searched: set[str] = set()
    for answer in answers:
        searched.update(answer.searchedRepos or ([answer.repoId] if answer.repoId else []))
    return t.SearchResult(
        repoId=None,
        query=query,
        mode=lead.mode if lead is not None else SearchMode.EMPTY,
        retrievalPath=lead.retrievalPath if lead is not None else RetrievalPath.KEYWORD_NO_EMBEDDER,
        hits=[hit for hit, _, _ in ranked],
        note=_merged_note([answer for _, answer, _ in ranked], searched, answers, freshness),
        freshness=freshness,
        searchedRepos=sorted(searched),
    )


def _merged_note(
    shown: Sequence[t.SearchResult],
    searched: set[str],
    answers: Sequence[t.SearchResult],
    freshness: t.Freshness | None,
) -> str | None:
    """Why the merged answer may be partial (an index still being built), what the answers
    whose hits it shows say of them (`shown`, one per hit), or why it is empty."""
    if shown:
        return _shown_notes(shown, len(searched) == 1, freshness)
    if len(searched) == 1:  # that repository's own note says why
        return next((a.note for a in answers if a.note), f"no hit in {min(searched)}")
    if not searched:
        return "no repository you may read is registered"
    return f"no hit in any of the {len(searched)} repositories searched"


def _shown_notes(
    shown: Sequence[t.SearchResult], alone: bool, freshness: t.Freshness | None
) -> str | None:
    """The notes of the answers whose hits the merged answer shows, each once and after its
    repository's id when several were searched. QA on Textualize/rich, one repository served:
    without a repoId, `rich/table.py:99999` lost the note saying the line is past the end."""
    building = building_note(freshness.indexing) if freshness and freshness.indexing else None
    if alone:  # that repository's note holds its own building note
        return shown[0].note or building
    notes: list[str] = [building] if building else []
    for answer in shown:
        note = f"{answer.repoId}: {answer.note}" if answer.repoId and answer.note else answer.note
        if note and note not in notes:
            notes.append(note)
    return "; ".join(notes) or None
