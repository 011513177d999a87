"""The progress snapshot of one repository's ingest job (index_status's shape)."""

from __future__ import annotations

import time
from typing import Any

from schemas.timestamps import iso_utc
from streams.sources.reconcile import PlanCounts


class JobTracker:
    """Mutable progress of the current run; `snapshot()` is what index_status returns."""

    def __init__(self, repo_id: str, attempt: int = 0) -> None:
        self.repo_id = repo_id
        self.status = "None"
        self.phase: str | None = None
        self.counts = PlanCounts()
        self.chunks_total = 0
        self.chunks_committed = 0
        self.attempt = attempt
        self.started_at: float | None = None
        self.updated_at: float | None = None
        self.completed_at: float | None = None
        self.error: str | None = None
        # (files read, files discovered) of the pass's walk, as the reading callback last said:
        # what a process indexing through this one shows (discovered None: still listing)
        self.reading: tuple[int, int | None] = (0, None)
        self._accepted = False  # accept() already counted the run start() is about to begin

    def accept(self) -> None:
        """The run is accepted and about to start: report Running at once, as the onboarding
        tools answer with this snapshot (spec §1.5: "the job progress snapshot at acceptance
        (Running)"); the start() that follows does not count the run twice."""
        self.start()
        self._accepted = True

    def start(self) -> None:
        if not self._accepted:
            self.attempt += 1
        self._accepted = False
        self.status, self.phase = "Running", "Walking"
        self.counts = PlanCounts()
        self.chunks_total = self.chunks_committed = 0
        self.started_at = self.updated_at = time.time()
        self.completed_at = None
        self.error = None
        self.reading = (0, None)

    def read(self, done: int, total: int | None) -> None:
        """The reading callback (from the planner's thread; one tuple, swapped whole)."""
        self.reading = (done, total)

    def touch(self, phase: str | None = None) -> None:
        if phase is not None:
            self.phase = phase
        self.updated_at = time.time()

    def finish(self) -> None:
        self.status, self.phase = "Completed", "Done"
        self.completed_at = self.updated_at = time.time()

    def elapsed_s(self) -> float:
        """Seconds the job ran (so far, while it runs)."""
        if self.started_at is None:
            return 0.0
        return (self.completed_at or time.time()) - self.started_at

    def fail(self, error: str) -> None:
        self.status, self.error = "Failed", error
        self.completed_at = self.updated_at = time.time()

    def snapshot(self) -> dict[str, Any]:
        end = self.completed_at or time.time()
        counts: dict[str, Any] = dict(self.counts.as_dict())
        if self.counts.skipped_by:
            counts["skippedByReason"] = dict(sorted(self.counts.skipped_by.items()))
        if self.counts.unreadable_paths:
            counts["unreadablePaths"] = list(self.counts.unreadable_paths)
        if self.counts.ignore_rules_dropped:
            counts["ignoreRulesDropped"] = self.counts.ignore_rules_dropped
            counts["ignoreRulesDroppedPaths"] = list(self.counts.ignore_rules_dropped_paths)
        return {
            "repoId": self.repo_id,
            "status": self.status,
            "phase": self.phase,
            **counts,
            "chunksTotal": self.chunks_total,
            "chunksCommitted": self.chunks_committed,
            "filesContentProjected": self.counts.added + self.counts.updated,
            "attempt": self.attempt,
            "startedAt": iso_utc(self.started_at),
            "updatedAt": iso_utc(self.updated_at),
            "completedAt": iso_utc(self.completed_at),
            "elapsedMilliseconds": (
                int((end - self.started_at) * 1000) if self.started_at is not None else None
            ),
            "error": self.error,
        }
