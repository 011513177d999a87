"""Workspace ingest: registrations in, file events out.

The coordinator folds `repos.v1` to know which repositories exist, and for each workspace
repository runs one task: a reconcile (walk + stat fast path + read) that publishes what
changed to `files.v1` in batches, then live watching. The manifest is updated only after a
batch is in the log, so a crash re-publishes (harmless: upserts are idempotent) and never
loses a change; the paths a batch upserts are marked in flight there first, so a file the
crash left in the log but not in the manifest is still tombstoned once it is deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from schemas import codec, topics
from schemas.events import RepoRegistration, file_key
from streams.errors import SourceError, StorageFull, storage_exhausted
from streams.eventlog.base import EventLog, LogRecord
from streams.eventlog.fold import live_keys
from streams.ingest_job import JobTracker
from streams.sources.ignore import PathFilter
from streams.sources.manifest import IN_FLIGHT, Manifest, ManifestRow
from streams.sources.reconcile import ChangeBatch, PlanCounts, ProgressCallback, plan_changes
from streams.sources.walker import to_event
from streams.sources.watcher import WorkspaceWatcher, iter_path_changes
from streams.stores.read_budget import unbudgeted_context

log = logging.getLogger(__name__)

WaitIdle = Callable[[float], Awaitable[bool]]


class IngestCoordinator:
    def __init__(
        self,
        event_log: EventLog,
        manifest: Manifest,
        *,
        data_dir: Path,
        notify: Callable[[], None],
        wait_idle: WaitIdle,
        watch: bool = True,
        debounce_ms: int = 50,
        batch_size: int = 256,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        self.log = event_log
        self.data_dir = data_dir  # where a full disk is reported (the log, the manifest)
        self.manifest = manifest
        self.notify = notify
        self.wait_idle = wait_idle
        self.watch = watch
        self.debounce_ms = debounce_ms
        self.batch_size = batch_size
        self.on_progress = on_progress
        self.registrations: dict[str, RepoRegistration] = {}
        self.jobs: dict[str, JobTracker] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._watchers: dict[str, WorkspaceWatcher] = {}
        # Repositories resumed at start whose disk has not been compared with the views yet.
        self._unchecked: set[str] = set()
        self._watch_faults: dict[str, str] = {}  # repo id -> why its watcher is not running
        self._instance_id: str = str(getattr(event_log, "instance_id", ""))
        # One publisher per repository at a time: a refresh reading the manifest while the
        # watcher's batch is in flight there would take its files for changed ones.
        self._publishing: dict[str, asyncio.Lock] = {}

    # -- registry --------------------------------------------------------------------------

    async def load(self) -> dict[str, RepoRegistration]:
        """Fold `repos.v1` from the start into the current registrations."""
        found: dict[str, RepoRegistration] = {}
        for partition in range(await self.log.partitions(topics.REPOS.name)):
            offset = 0
            while batch := await self.log.read(topics.REPOS.name, partition, offset, 500):
                for record in batch:
                    if record.key is None:
                        continue
                    value = codec.decode(record.topic, record.value)
                    if value is None:
                        found.pop(record.key, None)
                    elif isinstance(value, RepoRegistration):
                        found[record.key] = value
                offset = batch[-1].offset + 1
        self.registrations = found
        return found

    def is_registered(self, repo_id: str) -> bool:
        return repo_id in self.registrations

    def pending_files(self, repo_id: str) -> int | None:
        """Files changed on disk that the watcher has seen but not yet published to the log;
        None when not known (no watcher yet, a full pass running, or not a workspace repo).
        Changes inside the watcher's debounce window (at most about 1.6 s) are not seen yet."""
        job = self.jobs.get(repo_id)
        if job is not None and job.status == "Running":
            return None
        watcher = self._watchers.get(repo_id)
        return None if watcher is None or not watcher.synced else watcher.pending

    def watch_problems(self) -> dict[str, str]:
        """Repositories whose watcher cannot watch (root gone, inotify limit, crash loop) and
        why; a watcher that came back and synced clears its entry. Health reports these as
        not ready: their views silently stop following the disk."""
        for repo_id in list(self._watch_faults):
            watcher = self._watchers.get(repo_id)
            if repo_id not in self.registrations or (watcher is not None and watcher.synced):
                del self._watch_faults[repo_id]
        return dict(self._watch_faults)

    def unchecked(self) -> list[str]:
        """Repositories resumed at start whose files on disk have not been compared with the
        views yet (pendingFiles unknown): answers about them may miss offline edits."""
        for repo_id in list(self._unchecked):
            if repo_id not in self.registrations or self.pending_files(repo_id) is not None:
                self._unchecked.discard(repo_id)  # removed, or its watcher has synced
        return sorted(self._unchecked)

    def registered_ids(self) -> list[str]:
        return sorted(self.registrations)

    def job(self, repo_id: str) -> dict[str, object] | None:
        """The progress of the repository's job in this process (None: none ran here)."""
        tracker = self.jobs.get(repo_id)
        return tracker.snapshot() if tracker is not None else None

    def saved_job(self, repo_id: str) -> dict[str, Any] | None:
        """The latest job's progress as last saved, by this process or an earlier one
        (blocking; call from a thread)."""
        return self.manifest.get_job(repo_id)

    async def start_all(self) -> None:
        """Resume every registered workspace repository (stat fast path, then watch)."""
        for registration in (await self.load()).values():
            if registration.source == "workspace":
                self._unchecked.add(registration.repo_id)
                self._launch(registration, force_full=False, runs=await self._runs(registration))

    async def register(
        self, registration: RepoRegistration, *, force_full: bool, launch: bool = True
    ) -> None:
        await self.log.append(
            topics.REPOS.name,
            [LogRecord(key=registration.repo_id, value=codec.encode(registration))],
        )
        self.registrations[registration.repo_id] = registration
        self.notify()
        await self._cancel(registration.repo_id)
        if launch:
            self._launch(registration, force_full=force_full, runs=await self._runs(registration))

    async def rerun(self, repo_id: str) -> None:
        """A fresh pass over a registered workspace repository (the stat fast path), then
        its watch again: what `index PATH` asks of the process that already watches PATH, so
        its answer counts what this pass found, not the pass the process started with."""
        registration = self.registrations.get(repo_id)
        if registration is None or registration.source != "workspace":
            raise SourceError(f"{repo_id!r} is not a registered workspace repository")
        await self._cancel(repo_id)
        self._launch(registration, force_full=False, runs=await self._runs(registration))

    async def unregister(self, repo_id: str) -> int:
        """Tombstone every file of the repository and the repository itself: the files and
        the registration the log holds live (whoever published them), not what the views
        have applied so far."""
        await self._cancel(repo_id)
        live = await live_keys(self.log, topics.FILES.name, repo_id)
        records = [LogRecord(key=key, value=None) for key in live]
        for start in range(0, len(records), self.batch_size):
            await self.log.append(topics.FILES.name, records[start : start + self.batch_size])
        existed = repo_id in await self.load()  # a source elsewhere may have registered it
        if existed:
            await self.log.append(topics.REPOS.name, [LogRecord(key=repo_id, value=None)])
        self.registrations.pop(repo_id, None)
        self.jobs.pop(repo_id, None)
        await asyncio.to_thread(self.manifest.drop_repo, repo_id)
        self.notify()
        return len(records) + (1 if existed else 0)

    # -- per-repository task ---------------------------------------------------------------

    async def _runs(self, registration: RepoRegistration) -> int:
        """The runs the repository's job started before this one: this process's, else the
        last saved snapshot's (`attempt` is a tally across restarts, not per process)."""
        previous = self.jobs.get(registration.repo_id)
        if previous is not None:
            return previous.attempt
        try:
            saved = await asyncio.to_thread(self.manifest.get_job, registration.repo_id)
        except (SourceError, sqlite3.Error, ValueError) as exc:  # a tally is no reason to stop
            log.warning("no saved job of %s to count runs from: %s", registration.repo_id, exc)
            return 0
        attempt = saved.get("attempt") if saved else None
        return attempt if isinstance(attempt, int) and attempt >= 0 else 0

    def _launch(self, registration: RepoRegistration, *, force_full: bool, runs: int) -> None:
        repo_id = registration.repo_id
        tracker = JobTracker(repo_id, attempt=runs)
        tracker.accept()
        self.jobs[repo_id] = tracker
        task = asyncio.create_task(
            self._run(registration, force_full),
            name=f"ingest:{repo_id}",
            context=unbudgeted_context(),  # the job outlives the tool call that launched it
        )
        self._tasks[repo_id] = task

    async def _cancel(self, repo_id: str) -> None:
        task = self._tasks.pop(repo_id, None)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, registration: RepoRegistration, force_full: bool) -> None:
        await self.reconcile(registration, force_full=force_full)
        if self.watch:
            await self._watch_forever(registration)

    async def reconcile(self, registration: RepoRegistration, *, force_full: bool) -> PlanCounts:
        """One full pass: publish every add, update and delete; the job tracks progress."""
        repo_id = registration.repo_id
        job = self.jobs.setdefault(repo_id, JobTracker(repo_id))
        job.start()
        await self._persist(job)
        try:
            known = await asyncio.to_thread(self.manifest.load, repo_id, self._instance_id)
            batches = plan_changes(
                Path(registration.root or "."),
                registration.filters,
                known,
                force_read=force_full,
                batch_size=self.batch_size,
                on_progress=self._reading_of(job),
                counts=job.counts,
            )
            await self._drain(repo_id, batches, job)
            job.touch("Applying")
            await self._persist(job)
            while not await self.wait_idle(5.0):
                job.touch()
            job.finish()
            self._unchecked.discard(repo_id)
            counts = job.counts  # a served repository's log said nothing once it was ready
            log.info(
                "index of %s complete: %d files (%d added, %d updated, %d removed, %d unchanged,"
                " %d skipped) in %.1f s",
                repo_id, counts.scanned, counts.added, counts.updated, counts.removed,
                counts.unchanged, counts.skipped, job.elapsed_s(),
            )  # fmt: skip
            if job.counts.unreadable:
                log.warning(
                    "%s: %d files or directories could not be read and are not indexed: %s",
                    repo_id,
                    job.counts.unreadable,
                    ", ".join(job.counts.unreadable_paths)
                    + (" ..." if job.counts.unreadable > len(job.counts.unreadable_paths) else ""),
                )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if storage_exhausted(exc):  # one clear line: no record is at fault
                if not isinstance(exc, StorageFull):
                    exc = StorageFull.at(self.data_dir, exc)
                log.error("ingest of %s stopped: %s", repo_id, exc)
            elif isinstance(exc, SourceError):  # said for a person: no traceback
                log.error("ingest of %s failed: %s", repo_id, exc)
            else:
                log.exception("ingest of %s failed", repo_id)
            job.fail(f"{type(exc).__name__}: {exc}")
        try:
            await self._persist(job)
        except Exception as exc:
            if not storage_exhausted(exc):
                raise
            log.error("the job status of %s could not be saved (no space)", repo_id)
        return job.counts

    def _reading_of(self, job: JobTracker) -> ProgressCallback:
        """The pass's reading count goes to the job (a process indexing through this one
        reads it there: agent_socket.py) and to this process's own progress, if any."""
        forward = self.on_progress

        def reading(done: int, total: int | None) -> None:
            job.read(done, total)
            if forward is not None:
                forward(done, total)

        return reading

    async def _drain(self, repo_id: str, batches: Iterator[ChangeBatch], job: JobTracker) -> None:
        sentinel = object()
        while True:
            batch = await asyncio.to_thread(next, batches, sentinel)
            if batch is sentinel:
                return
            assert isinstance(batch, ChangeBatch)
            job.chunks_total += 1
            await self.publish(repo_id, batch)
            job.chunks_committed += 1
            job.touch()

    def _publisher(self, repo_id: str) -> asyncio.Lock:
        return self._publishing.setdefault(repo_id, asyncio.Lock())

    async def publish(self, repo_id: str, batch: ChangeBatch) -> None:
        """Mark the batch's upserts in flight in the manifest, append its events, then record
        it in the manifest (in that order: sources/manifest.py, IN_FLIGHT)."""
        async with self._publisher(repo_id):
            await self._publish_held(repo_id, batch)

    async def _publish_held(self, repo_id: str, batch: ChangeBatch) -> None:
        now = time.time()
        records = [
            LogRecord(key=file_key(repo_id, s.path), value=codec.encode(to_event(repo_id, s, now)))
            for s in batch.upserts
        ]
        records += [LogRecord(key=file_key(repo_id, p), value=None) for p in batch.deletes]
        if batch.upserts:
            in_flight = {s.path: IN_FLIGHT for s in batch.upserts}
            await asyncio.to_thread(self.manifest.apply, repo_id, in_flight)
        if records:
            await self.log.append(topics.FILES.name, records)
            self.notify()
        if batch.record or batch.forget:
            await asyncio.to_thread(self.manifest.apply, repo_id, batch.record, batch.forget)

    async def refresh(
        self, repo_id: str, paths: list[str] | None
    ) -> tuple[int, dict[tuple[str, int], int]]:
        """Re-read `paths` (repo-relative files or directories; None = the whole repository)
        now, publish what changed, and return (events published, files.v1 end offsets after
        publishing) for the caller to wait on."""
        registration = self.registrations.get(repo_id)
        if registration is None or registration.source != "workspace":
            raise SourceError(f"{repo_id!r} is not a registered workspace repository")
        async with self._publisher(repo_id):  # the manifest it reads holds no batch in flight
            published = await self._refresh_held(registration, paths)
        partitions = await self.log.partitions(topics.FILES.name)
        ends = {
            (topics.FILES.name, p): await self.log.end_offset(topics.FILES.name, p)
            for p in range(partitions)
        }
        return published, ends

    async def _refresh_held(self, registration: RepoRegistration, paths: list[str] | None) -> int:
        repo_id = registration.repo_id
        root = Path(registration.root or ".")
        known = await asyncio.to_thread(self.manifest.load, repo_id, self._instance_id)
        if paths is None:
            batches: Iterator[ChangeBatch] = plan_changes(
                root, registration.filters, known, force_read=True, batch_size=self.batch_size
            )
        else:
            path_filter = PathFilter(root, registration.filters)
            batches = iter_path_changes(
                root, registration.filters, path_filter, known, paths, batch_size=self.batch_size
            )
        published = 0
        sentinel = object()
        while (batch := await asyncio.to_thread(next, batches, sentinel)) is not sentinel:
            assert isinstance(batch, ChangeBatch)
            published += batch.event_count
            await self._publish_held(repo_id, batch)
        return published

    async def _persist(self, job: JobTracker) -> None:
        await asyncio.to_thread(self.manifest.put_job, job.repo_id, job.snapshot())

    async def _watch_forever(self, registration: RepoRegistration) -> None:
        repo_id = registration.repo_id
        backoff = 1.0
        while True:
            try:
                known: dict[str, ManifestRow] = await asyncio.to_thread(
                    self.manifest.load, repo_id, self._instance_id
                )
                watcher = WorkspaceWatcher(
                    Path(registration.root or "."),
                    registration.filters,
                    known,
                    debounce_ms=self.debounce_ms,
                    batch_size=self.batch_size,
                )
                self._watchers[repo_id] = watcher
                try:
                    async for batch in watcher:
                        await self.publish(repo_id, batch)
                        backoff = 1.0
                finally:
                    if self._watchers.get(repo_id) is watcher:
                        del self._watchers[repo_id]
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # raised while unwinding a cancellation: stop, do not retry (a retry
                    # would never see the cancellation again, and close() would wait forever)
                    raise asyncio.CancelledError from exc
                fault = f"{type(exc).__name__}: {exc}"[:300]
                if self._watch_faults.get(repo_id) == fault:
                    # the same fault again (a registered root that is gone): one line, the
                    # traceback was logged when it first failed
                    log.warning(
                        "watching %s still fails (%s); retrying in %.0f s", repo_id, fault, backoff
                    )
                else:
                    log.exception("watching %s failed; retrying in %.0f s", repo_id, backoff)
                self._watch_faults[repo_id] = fault
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)

    async def close(self) -> None:
        for repo_id in list(self._tasks):
            await self._cancel(repo_id)
