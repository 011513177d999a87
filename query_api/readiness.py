"""Readiness verdict (spec §5.1) derived from what retrieval actually did.

With no embedder bound (this deployment until the vector plane lands) the host is ready in
phase `keyword_only`, or `nothing_registered` before any repository exists.
"""

from __future__ import annotations

import threading

from schemas.retrieval import RetrievalPath, RetrievalPhase


class Readiness:
    def __init__(self, embedder_bound: bool = False) -> None:
        self.embedder_bound = embedder_bound
        self._last_path: RetrievalPath | None = None
        self._lock = threading.Lock()

    def observe(self, path: RetrievalPath) -> None:
        with self._lock:
            self._last_path = path

    def verdict(self, *, has_repos: bool) -> tuple[str, bool, str]:
        """(phase, ready, status line), sampled once so phase and ready always agree."""
        if not self.embedder_bound:
            if not has_repos:
                return (
                    RetrievalPhase.NOTHING_REGISTERED.value,
                    True,
                    "ready: no repository registered yet; add one with repocontext_add_repo",
                )
            return (
                RetrievalPhase.KEYWORD_ONLY.value,
                True,
                "ready: keyword search (BM25); no embedder is configured",
            )
        return (RetrievalPhase.BUILDING.value, False, "building: the vector plane is not proven")
