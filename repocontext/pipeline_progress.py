"""The long one-shot commands' work, reported stage by stage (repocontext/progress.py).

`index` reads files (counted by the reconcile's own callback), then waits for the pipeline to
process what it published: that stage is measured on the log (records applied by every step
over records to apply), which is where a large repository spends most of its time.
Embedding and replay are measured the same way: the vector step's and the runtime's
position on the log, so each has a total, a rate and an ETA.
"""

from __future__ import annotations

import asyncio
from typing import Any

from repocontext.app import EmbeddedApp
from repocontext.progress import POLL_S, ProgressReporter, follow
from schemas.events import RepoRegistration

READING_PHASES = (None, "Walking", "Reconciling")


async def reconcile_in_stages(
    app: EmbeddedApp, registration: RepoRegistration, progress: ProgressReporter
) -> None:
    """One reconcile pass of `registration`: reading files, then processing records."""
    base = (await app.runtime.lag()).applied
    work = asyncio.ensure_future(app.ingest.reconcile(registration, force_full=False))
    while not work.done():
        phase = (app.ingest.job(registration.repo_id) or {}).get("phase")
        if phase not in READING_PHASES:
            break
        await asyncio.wait({work}, timeout=POLL_S)
    progress.stage("processing records")  # even when already done: its count is reported

    async def processed() -> tuple[int, int | None]:
        lag = await app.runtime.lag()
        return lag.applied - base, lag.end - base

    await follow(progress, processed, work)
    await work


async def embed_all(app: EmbeddedApp, progress: ProgressReporter) -> dict[str, int]:
    """Run the vector step until it has embedded everything in the log (passages already
    embedded elsewhere are reused by content address); returns passages embedded and reused."""
    indexer = app.plane.indexer
    assert indexer is not None
    before = (indexer.counters.passages_embedded, indexer.counters.passages_reused)
    backlog = await indexer.behind()
    progress.stage("embedding records", backlog)

    async def embedded() -> tuple[int, int | None]:
        return backlog - await indexer.behind(), backlog

    work: asyncio.Future[Any] = asyncio.ensure_future(indexer.run_until_idle())
    await follow(progress, embedded, work)
    await work
    return {
        "embedded": indexer.counters.passages_embedded - before[0],
        "reused": indexer.counters.passages_reused - before[1],
    }


async def replay_in_stages(app: EmbeddedApp, progress: ProgressReporter) -> int:
    """Re-consume the whole log into (empty) views; returns the records processed."""
    progress.stage("replaying records")

    async def applied() -> tuple[int, int | None]:
        lag = await app.runtime.lag()
        return lag.applied, lag.end

    work: asyncio.Future[int] = asyncio.ensure_future(app.runtime.run_until_idle())
    await follow(progress, applied, work)
    return await work
