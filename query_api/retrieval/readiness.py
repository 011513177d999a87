"""Readiness verdict (spec §5.1) derived from what retrieval actually did.

- No embedder bound: ready, phase `keyword_only` (or `nothing_registered` before any repo).
- Embedder bound: `building` (not ready) until a real answer took a semantic path (the
  warm-up query at start-up provides one as soon as vectors exist); then `serving`. Once
  serving, readiness is revoked only when capability-loss answers (every `keyword.*` path
  but `no_embedder`) persist for `hold_down_s` (30 s) without any semantic success; the
  warm-up probe runs again meanwhile, so a fault the plane recovered from clears by itself.
- Bound but nothing registered: ready, `nothing_registered` (not sticky).
- `saturated_unavailable` (not ready) where `building` would be, when the latest answer was
  refused by the admission gate, i.e. the exact scan's breaker withheld the vector plane
  because that scan stalls at current capacity (`keyword.exact_fallback_suppressed`). It
  clears by itself (the breaker's half-open probe, or the HNSW index taking over); the remedy
  is capacity, not a restart, which is what the status line says.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from schemas.retrieval import RetrievalPath, RetrievalPhase

HOLD_DOWN_S = 30.0
SEMANTIC = (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
SATURATED = RetrievalPath.KEYWORD_EXACT_FALLBACK_SUPPRESSED
SATURATED_STATUS = (
    "saturated: the exact vector scan stalls at current capacity, so its breaker withholds "
    "it (keyword search serves); clears by itself when the HNSW index serves or a probe "
    "answers in time; remedy: more CPU for the server or a smaller corpus"
)


class Readiness:
    def __init__(
        self,
        embedder_bound: bool = False,
        *,
        hold_down_s: float = HOLD_DOWN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.embedder_bound = embedder_bound
        self.hold_down_s = hold_down_s
        self._clock = clock
        self._last_path: RetrievalPath | None = None
        self._last_success: float | None = None
        self._fault_since: float | None = None
        self._lock = threading.Lock()

    def observe(self, path: RetrievalPath) -> None:
        with self._lock:
            self._last_path = path
            now = self._clock()
            if path in SEMANTIC:
                self._last_success = now
                self._fault_since = None
            elif path != RetrievalPath.KEYWORD_NO_EMBEDDER and self._fault_since is None:
                self._fault_since = now

    @property
    def fault_pending(self) -> bool:
        """Serving, and an answer fell back to keyword since the last semantic one: the
        plane's warm-up probe runs until one succeeds (query_api/retrieval/vector_plane.py)."""
        with self._lock:
            return self._last_success is not None and self._fault_since is not None

    @property
    def last_path(self) -> RetrievalPath | None:
        return self._last_path

    def verdict(self, *, has_repos: bool) -> tuple[str, bool, str]:
        """(phase, ready, status line), sampled once so phase and ready always agree."""
        with self._lock:
            if not has_repos:
                return (
                    RetrievalPhase.NOTHING_REGISTERED.value,
                    True,
                    "ready: no repository registered yet; add one with repocontext_add_repo",
                )
            if not self.embedder_bound:
                return (
                    RetrievalPhase.KEYWORD_ONLY.value,
                    True,
                    "ready: keyword search (BM25); no embedder is configured",
                )
            saturated = self._last_path == SATURATED
            if self._last_success is None:
                if saturated:
                    return RetrievalPhase.SATURATED_UNAVAILABLE.value, False, SATURATED_STATUS
                return (
                    RetrievalPhase.BUILDING.value,
                    False,
                    "building: the vector plane has not answered yet (keyword search serves "
                    "meanwhile)",
                )
            if self._fault_since is not None:
                faulted = self._clock() - self._fault_since
                if faulted >= self.hold_down_s and saturated:
                    return RetrievalPhase.SATURATED_UNAVAILABLE.value, False, SATURATED_STATUS
                if faulted >= self.hold_down_s:
                    path = self._last_path.value if self._last_path else "unknown"
                    return (
                        RetrievalPhase.BUILDING.value,
                        False,
                        f"degraded: no semantic answer for {faulted:.0f} s (last path {path})",
                    )
            return (
                RetrievalPhase.SERVING.value,
                True,
                "ready: semantic search serving (approximate -> exact -> BM25)",
            )
