"""The circuit breakers of the retrieval ladder: one per repository on the exact-scan
fallback, one on the query embedder, so a stalled dependency is waited out once per period
and not by every search."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Breaker:
    """Per-repository breaker on the exact fallback: a stall/timeout opens it for
    `open_seconds`; then one half-open probe is let through."""

    open_seconds: float = 30.0
    opened_at: dict[str, float] = field(default_factory=dict)

    def allows(self, repo_id: str) -> bool:
        opened = self.opened_at.get(repo_id)
        if opened is None:
            return True
        if time.monotonic() - opened >= self.open_seconds:
            self.opened_at[repo_id] = time.monotonic()  # half-open: one probe per period
            return True
        return False

    def trip(self, repo_id: str) -> None:
        self.opened_at[repo_id] = time.monotonic()

    def reset(self, repo_id: str) -> None:
        self.opened_at.pop(repo_id, None)
