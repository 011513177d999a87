"""Whether the log can be trusted: the faults that make the server not ready and refuse writes.

Three ways the views and the log part company without anything crashing:
- views ahead of the log: the view sink's offsets (kept in views.db) are past the log's end,
  i.e. the log was lost or replaced while the views survived. New records would land at
  offsets the sink believes it has applied, so writes would silently never show up;
- a log that fails SQLite's integrity check (at start) or whose reads report a malformed
  database image (at any time): it may drop or garble records;
- a step that keeps failing: the views stop following the log.
Each fault carries the reason an operator needs; views-ahead and step faults clear by
themselves when the condition does, corruption stays until a restart finds the log sound.
"""

from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)

CORRUPTION_MARKERS = ("malformed", "not a database", "disk image", "corrupt")
REMEDY = (
    "stop the server, keep views.db (it holds the memory the log lost), restore log.db from a "
    "backup, or run `repocontext replay`, which first exports that memory to a file in the "
    "data directory"
)


class LogHealth:
    def __init__(self, fault_after_failures: int = 3) -> None:
        self.fault_after_failures = max(1, fault_after_failures)
        self._faults: dict[str, str] = {}
        self._failures: dict[str, int] = {}
        self._lock = threading.Lock()

    def faults(self) -> dict[str, str]:
        with self._lock:
            return dict(self._faults)

    def reason(self) -> str | None:
        """One line naming every fault, or None when the log and views agree."""
        faults = self.faults()
        return "; ".join(faults[k] for k in sorted(faults)) if faults else None

    write_block = reason  # a write into a faulted log is refused with the same reason

    def _set(self, kind: str, reason: str | None) -> None:
        with self._lock:
            before = self._faults.get(kind)
            if reason is None:
                self._faults.pop(kind, None)
            else:
                self._faults[kind] = reason
        if reason is not None and before != reason:
            log.error("not ready: %s", reason)
        elif reason is None and before is not None:
            log.info("cleared: %s", before)

    def log_integrity(self, problems: list[str]) -> None:
        if problems:
            self._set(
                "log_corrupt",
                f"the event log failed its integrity check ({'; '.join(problems[:3])}); " + REMEDY,
            )

    def views_ahead(self, ahead: list[tuple[str, int, int, int]]) -> None:
        """(topic, partition, applied, log end) where the views are past the log's end."""
        if not ahead:
            self._set("views_ahead", None)
            return
        applied = sum(a for _, _, a, _ in ahead)
        end = sum(e for _, _, _, e in ahead)
        where = ", ".join(f"{t}[{p}] {a} > {e}" for t, p, a, e in ahead[:3])
        self._set(
            "views_ahead",
            f"the views are ahead of the event log (applied {applied} > log end {end}: {where});"
            " the log was lost or replaced, so new writes would never apply; " + REMEDY,
        )

    def step_failed(self, step_id: str, exc: BaseException) -> None:
        text = f"{type(exc).__name__}: {exc}"
        if any(marker in str(exc).lower() for marker in CORRUPTION_MARKERS):
            self._set(
                "log_corrupt", f"the event log is corrupt (step {step_id}: {text}); " + REMEDY
            )
        with self._lock:
            failures = self._failures[step_id] = self._failures.get(step_id, 0) + 1
        if failures >= self.fault_after_failures:
            self._set(
                f"step:{step_id}",
                f"step {step_id} has failed {failures} times in a row ({text[:300]})",
            )

    def step_succeeded(self, step_id: str) -> None:
        with self._lock:
            had = self._failures.pop(step_id, 0)
        if had:
            self._set(f"step:{step_id}", None)
