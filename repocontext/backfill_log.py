"""The vector backfill's progress in a server's log.

A server embeds in the background after the keyword index is complete; on a large repository
that takes many minutes, and its log said nothing meanwhile. While a repository's backfill
moves, one line every BACKFILL_LOG_S says the passages embedded of the estimated total, the
rate and the ETA (the vector plane's coverage: vector_coverage.py), and one more line says
when it is complete. One-shot commands (`index --vectors`, `replay`) show the same counts
through their progress bar instead (pipeline_progress.embed_all).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from repocontext.progress import duration_text
from schemas.tools import VectorCoverage

log = logging.getLogger("repocontext.vectors")
BACKFILL_LOG_S = 30.0  # a line per repository this often while its backfill moves


class BackfillLog:
    """Which line, if any, a repository's coverage is worth now: progress when the count
    moved since the last line, and `complete` once after progress was said."""

    def __init__(self) -> None:
        self._said: dict[str, int] = {}  # passages embedded at the last progress line

    def line(self, repo_id: str, coverage: VectorCoverage) -> str | None:
        done = coverage.passagesEmbedded
        if coverage.complete:
            if self._said.pop(repo_id, None) is None:
                return None  # complete before any progress was said: nothing happened here
            return f"vectors: {repo_id} complete, {done} passages embedded"
        if self._said.get(repo_id) == done:
            return None  # not moving (paced behind searches, or waiting for files)
        self._said[repo_id] = done
        total = done + coverage.passagesPending
        rate = coverage.passagesPerSecond
        eta = "-" if coverage.etaSeconds is None else duration_text(coverage.etaSeconds)
        speed = "?" if rate is None else f"{rate:.1f}"
        return f"vectors: {repo_id} {done}/{total} passages embedded ({speed}/s, eta {eta})"


async def log_backfill(
    coverage_of: Callable[[str], VectorCoverage | None],
    repo_ids: Callable[[], list[str]],
    stop: asyncio.Event,
    every_s: float = BACKFILL_LOG_S,
) -> None:
    """Log the backfill's progress of every registered repository until `stop` is set."""
    said = BackfillLog()
    while not stop.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
        for repo_id in repo_ids():
            coverage = await asyncio.to_thread(coverage_of, repo_id)
            line = None if coverage is None else said.line(repo_id, coverage)
            if line is not None and not stop.is_set():
                log.info("%s", line)
