"""Vector coverage, said plainly (issue 21 item 3): for a repository, the files the vector
plane covers of those it could (every file with a text body), the passages embedded and an
estimate of those still pending, and an ETA from the vector step's measured rate.

Every answer's `freshness.vectors`, `list_repos`' `vectorCoverage`, `repocontext_health` and
`/health/ready` carry it; a semantic or hybrid answer over partial coverage also marks its
hits with the reason `vectors-partial` (the files without vectors yet rank by words alone).
A file counts as covered when it has its passages or a contentless marker (nothing to embed);
a file whose new version is still queued keeps its older vectors and counts as covered, but the
coverage is not complete while the vector step trails the content the views hold: those older
vectors still rank the file.

Passages pending are the repository's expected passages less those stored, the expectation
made from each text file's path and size (`expected_passages`): tests, docs and data files
get only a marker and add nothing, and the total stays put while the work goes. A per-file
average over the files done so far counted every marker-only file as pending (Django: 37,489
passages expected for 8,782) and swung with the mix of files done (2551 -> 2364 -> 2983 on
ripgrep).

A coverage is cached for a burst of answers (COVERAGE_TTL_S), with the views' position in the
content topic it was measured at: a complete one is not served once the views have applied
content since (a file added), else for 2 s every answer claimed complete coverage of a file
the views already held and the vector plane had not embedded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from processors.vectors import CONTENTLESS_KIND, MAX_CHUNKS, READ_CHARS, embeddable_path
from schemas import tools as t
from schemas.retrieval import MAX_REASONS
from schemas.topics import CONTENT
from streams.stores.vector_opening import VectorStoreOpening
from streams.stores.vectors import VectorStore
from streams.stores.views.store import ViewStore
from streams.vectors_step import VectorCounters

COVERAGE_TTL_S = 2.0  # five store counts per repository: cached for the answers of a burst
PARTIAL_REASON = "vectors-partial"
CHARS_PER_PASSAGE = 600  # of a source file's body, on average (see expected_passages)


@dataclass(frozen=True)
class _Cached:
    at: float  # time.monotonic() when measured
    content_position: int  # the views' position in the content topic before it was measured
    coverage: t.VectorCoverage

    def holds(self, now: float, ttl_s: float, content_position: int) -> bool:
        """Within the TTL, and, for a complete coverage, no content applied since. A partial
        one already says it is partial, at most the TTL old: measuring it again on every
        batch of a first index would put five store counts in every answer (the vector
        store's under the lock its backfill writes hold)."""
        if now - self.at >= ttl_s:
            return False
        return not self.coverage.complete or content_position == self.content_position


class CoverageReader:
    def __init__(
        self,
        views: ViewStore,
        store: VectorStore,
        counters: VectorCounters | None,
        *,
        indexing: Callable[[str], bool] | None = None,
    ) -> None:
        self.views = views
        self.store = store
        self.counters = counters  # None on a query replica: the worker measures the rate
        # repoId -> its keyword index is still being built here: with no file in the views
        # yet, 0 of 0 files is not "complete" (the files are on their way)
        self.indexing = indexing
        self.ttl_s = COVERAGE_TTL_S
        self._cached: dict[str, _Cached] = {}
        self._estimates: dict[str, tuple[tuple[int, int, float], tuple[int, int]]] = {}
        self._lock = threading.Lock()

    def of(self, repo_id: str) -> t.VectorCoverage:
        """The repository's coverage (blocking: store counts; call from a thread)."""
        applied = self._content_offsets()  # read first: a file applied meanwhile shows
        position = sum(applied.values())
        with self._lock:
            hit = self._cached.get(repo_id)
        if hit is not None and hit.holds(time.monotonic(), self.ttl_s, position):
            return hit.coverage
        coverage = self._measure(repo_id, self._vectors_lag(applied))
        if coverage.filesTotal:  # nothing indexed yet changes within the first seconds
            with self._lock:
                self._cached[repo_id] = _Cached(time.monotonic(), position, coverage)
        return coverage

    def _content_offsets(self) -> dict[int, int]:
        """The views' applied offsets in the content topic by partition: their sum moves
        whenever a file's content row is written or removed (any repository's), and costs one
        read of the small sink offsets table, not a count over the repository's files."""
        applied = self.views.offsets()
        return {part: offset for (topic, part), offset in applied.items() if topic == CONTENT.name}

    def _vectors_lag(self, applied: dict[int, int]) -> int:
        """Content records the views applied that the vector step has not consumed: files
        added, rewritten or deleted whose vectors are missing or still the old version's.
        Counted over every repository (the offsets are the log's), so one repository's
        backlog makes the others' coverage partial too: late, never wrongly complete. 0 on a
        query replica (no counters) and before the step's first pass."""
        consumed = None if self.counters is None else self.counters.content_consumed
        if consumed is None:
            return 0
        return sum(max(0, offset - consumed.get(part, 0)) for part, offset in applied.items())

    def _measure(self, repo_id: str, lag: int) -> t.VectorCoverage:
        total = self.views.content_count(repo_id)
        if not total:  # the files view fills first: no content rows yet is not "all covered"
            total = self.views.text_file_count(repo_id)
        embedded = self.store.sources(repo_id=repo_id, kind="file")
        markers = self.store.count(repo_id=repo_id, kind=CONTENTLESS_KIND)
        passages = self.store.count(repo_id=repo_id, kind="file")
        covered = min(total, embedded + markers)
        pending = 0
        if covered < total:
            expected, files = self._expected(repo_id)
            # Passages to come: the repository's estimate less those stored, and at least one
            # per source file not embedded yet (the estimate is a few % low on some repos).
            pending = max(expected - passages, min(total - covered, files - embedded), 0)
        elif lag:
            # Every file counts as covered, yet some were replaced since the step's last pass:
            # their old vectors count (a deleted file's, not yet retired, even cover the file
            # added in its place). One passage for each such record is still to come.
            pending = lag
        rate = self.counters.rate if self.counters is not None else None
        eta = eta_seconds(pending, rate)
        return t.VectorCoverage(
            filesTotal=total,
            filesCovered=covered,
            filesEmbedded=embedded,
            passagesEmbedded=passages,
            passagesPending=pending,
            complete=covered >= total and not lag and (total > 0 or not self._indexing(repo_id)),
            passagesPerSecond=round(rate, 2) if rate else None,
            etaSeconds=eta,
        )

    def _expected(self, repo_id: str) -> tuple[int, int]:
        """(passages, files with passages) the repository's text files should come to,
        estimated from their paths and sizes; made again only when a text file changed."""
        version = self.views.text_files_version(repo_id)
        with self._lock:
            hit = self._estimates.get(repo_id)
        if hit is not None and hit[0] == version:
            return hit[1]
        estimates = [
            expected_passages(path, size)
            for path, size, generated in self.views.text_file_sizes(repo_id)
            if not generated
        ]
        found = (sum(estimates), sum(1 for n in estimates if n))
        with self._lock:
            self._estimates[repo_id] = (version, found)
        return found

    def _indexing(self, repo_id: str) -> bool:
        return self.indexing is not None and self.indexing(repo_id)

    def overall(self, repo_ids: list[str]) -> t.VectorCoverage | None:
        """Every repository's coverage summed (the health answer is not per repository);
        None while the store is not open yet: not known."""
        try:
            parts = [self.of(r) for r in repo_ids]
        except VectorStoreOpening:
            return None
        if not parts:
            return None
        pending = sum(p.passagesPending for p in parts)
        rate = parts[0].passagesPerSecond
        return t.VectorCoverage(
            filesTotal=sum(p.filesTotal for p in parts),
            filesCovered=sum(p.filesCovered for p in parts),
            filesEmbedded=sum(p.filesEmbedded for p in parts),
            passagesEmbedded=sum(p.passagesEmbedded for p in parts),
            passagesPending=pending,
            complete=all(p.complete for p in parts),
            passagesPerSecond=rate,
            etaSeconds=eta_seconds(pending, rate),
        )


def expected_passages(path: str, size: int) -> int:
    """A file's passage count estimated from its path and size alone (processors/vectors.py
    cuts blocks of at most CHUNK_CHARS from the first READ_CHARS). CHARS_PER_PASSAGE is
    measured: the estimate's total is within 2 % of the real one on Django and on eight of the
    localisation benchmark's repositories. Tests, docs and data files get only a marker: 0."""
    if size <= 0 or not embeddable_path(path):
        return 0
    return min(MAX_CHUNKS, -(-min(size, READ_CHARS) // CHARS_PER_PASSAGE))


def eta_seconds(pending: int, rate: float | None) -> float | None:
    """0 when nothing is pending, None before any rate was measured."""
    if not pending:
        return 0.0
    return max(0.1, round(pending / rate, 1)) if rate else None


def coverage_line(coverage: t.VectorCoverage) -> str:
    """The health status clause of a partial coverage."""
    eta = f", about {coverage.etaSeconds:.0f} s to go" if coverage.etaSeconds else ""
    return (
        f"vectors cover {coverage.filesCovered} of {coverage.filesTotal} files "
        f"({coverage.passagesPending} passages pending{eta}); semantic ranking is partial"
    )


def mark_partial(
    hits: list[t.SearchHit], coverage: t.VectorCoverage | t.VectorsComplete | None
) -> list[t.SearchHit]:
    """Hits of a semantic/hybrid answer over partial coverage carry `vectors-partial`."""
    if coverage is None or coverage.complete:
        return hits
    # The mark outranks a hit's last reason when the list is full: it qualifies the rest.
    return [
        h
        if PARTIAL_REASON in h.reasons
        else h.model_copy(update={"reasons": [*h.reasons[: MAX_REASONS - 1], PARTIAL_REASON]})
        for h in hits
    ]
