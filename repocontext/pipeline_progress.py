"""The long one-shot commands' work, reported stage by stage (repocontext/progress.py).

`index` reads files (counted by the reconcile's own callback), then waits for the pipeline to
process what it published: that stage is measured on the log (records applied by every step
over records to apply), which is where a large repository spends most of its time.
Replay is measured the same way (the runtime's position on the log); embedding counts
passages (embed_all), so each stage has a total, a rate and an ETA.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, TypeVar

from repocontext.app import EmbeddedApp
from repocontext.progress import POLL_S, ProgressReporter, follow
from schemas.events import RepoRegistration

READING_PHASES = (None, "Walking", "Reconciling")
T = TypeVar("T")


@contextlib.asynccontextmanager
async def settled(work: asyncio.Future[T]) -> AsyncIterator[asyncio.Future[T]]:
    """The work is stopped before the caller goes on when the caller is cancelled (Ctrl-C):
    the command then closes the app, and a reconcile still running wrote to the closed log
    and logged `ingest of ... failed` with a traceback."""
    try:
        yield work
    finally:
        if not work.done():
            work.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await work


async def reconcile_in_stages(
    app: EmbeddedApp, registration: RepoRegistration, progress: ProgressReporter
) -> None:
    """One reconcile pass of `registration`: reading files, then processing records."""
    base = (await app.runtime.lag()).applied

    async def processed() -> tuple[int, int | None]:
        lag = await app.runtime.lag()
        return lag.applied - base, lag.end - base

    reconcile = app.ingest.reconcile(registration, force_full=False)
    async with settled(asyncio.ensure_future(reconcile)) as work:
        while not work.done():
            phase = (app.ingest.job(registration.repo_id) or {}).get("phase")
            if phase not in READING_PHASES:
                break
            await asyncio.wait({work}, timeout=POLL_S)
        progress.stage("processing records")  # even when already done: its count is reported
        await follow(progress, processed, work)
        await work


async def embed_all(app: EmbeddedApp, progress: ProgressReporter) -> dict[str, int]:
    """Run the vector step until it has embedded everything in the log (passages already
    embedded elsewhere are reused by content address); returns passages embedded and reused.

    Progress counts passages, which move every embedding batch; the vector step's position
    on the log moves only per batch of records, so a count of records sat still for minutes
    while a batch's thousands of passages were embedded. The total is the passages done plus
    the vector plane's estimate of those pending (vector_coverage.py: per repository, from
    the passages per covered file so far), so it firms up as the work goes."""
    indexer = app.plane.indexer
    assert indexer is not None
    counters = indexer.counters
    before = (counters.passages_embedded, counters.passages_reused)
    repos = [r.repo_id for r in await asyncio.to_thread(app.views.list_repos)]
    progress.stage("embedding passages")
    await asyncio.to_thread(app.plane.foreground, True)  # the user waits: normal priority
    work: asyncio.Future[Any] = asyncio.ensure_future(indexer.run_until_idle())

    async def passages() -> tuple[int, int | None]:
        done = counters.passages_embedded + counters.passages_reused - sum(before)
        if work.done():
            return done, done
        pending = await asyncio.to_thread(_passages_pending, app, repos)
        return done, None if pending is None else done + pending

    async with settled(work):
        await follow(progress, passages, work)
        await work
    return {
        "embedded": counters.passages_embedded - before[0],
        "reused": counters.passages_reused - before[1],
    }


def _passages_pending(app: EmbeddedApp, repos: list[str]) -> int | None:
    """The vector plane's estimate of the passages still to embed; None when it cannot say."""
    estimates = [c.passagesPending for r in repos if (c := app.plane.coverage_of(r)) is not None]
    return sum(estimates) if estimates else None


async def replay_in_stages(app: EmbeddedApp, progress: ProgressReporter) -> int:
    """Re-consume the whole log into (empty) views; returns the records processed.

    Counted from the positions at the start: the processors' groups are done already (only
    the views were dropped), and counting their positions too made the stage start half
    full and its rate, so its ETA, several times too good. A step rewound to re-derive
    lowers the base, so its work is counted too."""
    progress.stage("replaying records")
    base = [(await app.runtime.lag()).applied]

    async def applied() -> tuple[int, int | None]:
        lag = await app.runtime.lag()
        base[0] = min(base[0], lag.applied)
        return lag.applied - base[0], lag.end - base[0]

    async with settled(asyncio.ensure_future(app.runtime.run_until_idle())) as work:
        await follow(progress, applied, work)
        return await work
