"""Live workspace watching: filesystem events in, `ChangeBatch`es of upserts and deletes out.

Events are only hints. For every affected path the watcher looks at the disk as it is now
(so create/modify/delete/rename all reduce to "what is there"), re-reads the file and compares
its digest with the in-memory manifest, so a save that does not change bytes publishes
nothing. A directory event rescans that directory; a path that vanished takes everything
known below it along. A `.gitignore` change can hide or reveal any path, so it re-derives the
watch set and triggers a full reconcile instead of guessing; so does a lost-event overflow.

The watch set follows the walk's rules (`dir_watch`): no symlink is followed and ignored
directories are never watched. It is established before the initial reconcile runs, so
nothing changed during startup is lost; duplicates are harmless because the digest
comparison drops them. Events are read, debounced and filtered on a worker thread: nothing
here matches patterns on the event loop. A root that cannot be watched raises WatchError.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Iterator, Mapping
from contextlib import aclosing
from pathlib import Path
from typing import Protocol, TypeVar

import anyio
import anyio.to_thread

from schemas.events import WalkFilters
from streams.sources.dir_watch import DirectoryWatch
from streams.sources.ignore import GIT_DIR, GITIGNORE, PathFilter
from streams.sources.manifest import ManifestRow
from streams.sources.reconcile import (
    DEFAULT_BATCH_SIZE,
    ChangeBatch,
    Classifier,
    PlanCounts,
    ProgressCallback,
    fast_path_ok,
    plan_changes,
)
from streams.sources.walker import is_walkable_dir, lstat_entry, read_file, walk

log = logging.getLogger(__name__)

T = TypeVar("T")


class StopEvent(Protocol):
    """asyncio.Event, anyio.Event or threading.Event: anything with is_set/set."""

    def is_set(self) -> bool: ...

    def set(self) -> object: ...


def _known_below(known: Mapping[str, ManifestRow], rel_dir: str) -> list[str]:
    prefix = rel_dir + "/"
    return [path for path in known if path.startswith(prefix)]


def iter_path_changes(
    root: Path,
    filters: WalkFilters,
    path_filter: PathFilter,
    known: Mapping[str, ManifestRow],
    paths: Iterable[str],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> Iterator[ChangeBatch]:
    """Reconcile just `paths` (repo-relative; files or directories) against `known`."""
    classifier = Classifier(known, batch_size, PlanCounts())
    binaries = filters.exclude_binary
    denied: list[str] = []  # directories below `paths` that cannot be listed
    for rel in sorted(set(paths)):
        if rel in classifier.done:  # already handled by a rescan of its directory
            continue
        entry = lstat_entry(root, rel, path_filter)
        if entry is not None:
            result = read_file(root, rel, exclude_binary=binaries)
            classifier.classify(entry, result, time.time_ns())
        elif is_walkable_dir(root, rel, path_filter):
            if rel in known:  # a file was replaced by a directory
                classifier.gone(rel)
            seen: set[str] = set()
            for child in walk(root, filters, path_filter=path_filter, start=rel, unreadable=denied):
                seen.add(child.path)
                if child.path in classifier.done:
                    continue
                fresh = fast_path_ok(child, known.get(child.path))
                found = None if fresh else read_file(root, child.path, exclude_binary=binaries)
                classifier.classify(child, found, time.time_ns())
                if (batch := classifier.take_if_full()) is not None:
                    yield batch
            for gone in _known_below(known, rel):
                if gone not in seen:
                    classifier.gone(gone)
        elif rel in known:
            classifier.gone(rel)
        else:  # nothing there now; if it was a directory, its files went with it
            for gone in _known_below(known, rel):
                classifier.gone(gone)
        if (batch := classifier.take_if_full()) is not None:
            yield batch
    _warn_unreadable(root, classifier.counts, denied)
    if not classifier.batch.is_empty():
        yield classifier.take()


def _warn_unreadable(root: Path, counts: PlanCounts, denied: list[str]) -> None:
    """A file or directory the watcher cannot read (chmod 000 while served) leaves the index
    as a full pass's does, and is said the same way: it left without a word, and the job's
    counts are the last full pass's."""
    for directory in denied:
        counts.cannot_read(directory + "/")
    if counts.unreadable:
        log.warning(
            "%s: %d files or directories could not be read and are not indexed: %s",
            root,
            counts.unreadable,
            ", ".join(counts.unreadable_paths),
        )


class WorkspaceWatcher:
    """Async iterator of `ChangeBatch`es for one workspace repository, until `stop_event` is set.

    `known` seeds the in-memory manifest (e.g. `Manifest.load(...)`); the watcher updates its
    copy when the consumer asks for the next batch, i.e. after it published the previous one.
    Apply each batch's `record`/`forget` to the persistent manifest yourself. With
    `initial_reconcile` (default) the first batches are a full `plan_changes` pass.
    """

    def __init__(
        self,
        root: Path,
        filters: WalkFilters,
        known: Mapping[str, ManifestRow] | None = None,
        *,
        stop_event: StopEvent | None = None,
        debounce_ms: int = 50,
        max_batch_ms: int = 1600,
        initial_reconcile: bool = True,
        idle_timeout_ms: int = 1000,
        batch_size: int = DEFAULT_BATCH_SIZE,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        self.root = Path(os.path.abspath(root))
        self.filters = filters
        self.known: dict[str, ManifestRow] = dict(known or {})
        # threading.Event by default: it can be built outside a running event loop.
        self.stop_event: StopEvent = stop_event if stop_event is not None else threading.Event()
        self.debounce_ms = debounce_ms
        self.max_batch_ms = max(max_batch_ms, debounce_ms)
        self.initial_reconcile = initial_reconcile
        self.idle_timeout_ms = idle_timeout_ms
        self.batch_size = batch_size
        self.on_progress = on_progress
        self.path_filter = PathFilter(self.root, filters)
        self.last_counts: PlanCounts | None = None  # of the latest full reconcile
        self.synced = False  # the initial reconcile was yielded and consumed
        # Paths the OS reported changed whose batches the consumer has not yet taken and
        # published (freshness: "changed on disk, not yet indexed"); None while unknown
        # (before the initial reconcile is consumed, or during a full re-plan).
        self.pending: int | None = None
        self.dir_watch: DirectoryWatch | None = None  # while running

    def __aiter__(self) -> AsyncIterator[ChangeBatch]:
        return self._run()

    def stop(self) -> None:
        """End the iteration (within about `debounce_ms`)."""
        self.stop_event.set()

    def _wanted(self, rel: str) -> bool:
        """Drop events under `.git` and ignored directories early (on a worker thread)."""
        parts = rel.split("/")
        if GIT_DIR in parts:
            return False
        if parts[-1] == GITIGNORE:
            return True
        if len(parts) > 1 and self.path_filter.excluded(rel.rpartition("/")[0], is_dir=True):
            return False
        return not (self.path_filter.skip_dir(rel) and self.path_filter.skip_file(rel))

    def _open_watch(self) -> DirectoryWatch:
        dir_watch = DirectoryWatch(self.root, self.path_filter)
        try:
            dir_watch.add_tree("")
        except BaseException:
            dir_watch.close()
            raise
        return dir_watch

    def _next_changes(self, dir_watch: DirectoryWatch) -> tuple[set[str], bool]:
        """(wanted changed paths, whether only a full reconcile is safe); blocks up to the
        idle timeout. A full reconcile first re-derives the watch set under fresh rules."""
        seen = dir_watch.collect(self.idle_timeout_ms, self.debounce_ms, self.max_batch_ms)
        paths = {rel for rel in seen.paths if self._wanted(rel)}
        full = (
            seen.overflow
            or any(p.rpartition("/")[2] == GITIGNORE for p in paths)
            or self.path_filter.tracked_changed()  # files added to or removed from git's index
        )
        if full:
            self.path_filter.invalidate()
            dir_watch.resync()
        return paths, full

    async def _drain(self, batches: Iterator[ChangeBatch]) -> AsyncGenerator[ChangeBatch, None]:
        """Step a blocking batch iterator on a worker thread, keeping the event loop free."""
        try:
            while not self.stop_event.is_set():
                batch = await anyio.to_thread.run_sync(_next_or_none, batches)
                if batch is None:
                    return
                yield batch
        finally:
            # Cancelled while a worker thread is still inside next(batches): closing a running
            # generator raises ValueError, which would replace the cancellation; the thread
            # finishes on its own and the garbage collector closes the generator.
            close = getattr(batches, "close", None)
            if callable(close) and not getattr(batches, "gi_running", False):
                close()

    def _full_plan(self) -> Iterator[ChangeBatch]:
        self.path_filter.invalidate()
        self.last_counts = PlanCounts()
        return plan_changes(
            self.root,
            self.filters,
            self.known,
            batch_size=self.batch_size,
            on_progress=self.on_progress,
            path_filter=self.path_filter,
            counts=self.last_counts,
        )

    async def _run(self) -> AsyncIterator[ChangeBatch]:
        self.synced = not self.initial_reconcile
        self.pending = 0 if self.synced else None
        dir_watch = await anyio.to_thread.run_sync(self._open_watch)
        self.dir_watch = dir_watch
        try:
            full = self.initial_reconcile
            paths: set[str] = set()
            while not self.stop_event.is_set():
                if not full:
                    paths, full = await anyio.to_thread.run_sync(self._next_changes, dir_watch)
                    if self.stop_event.is_set():
                        return
                if full:
                    self.pending = None
                    batches = self._full_plan()
                elif paths:
                    self.pending = len(paths)
                    batches = iter_path_changes(
                        self.root,
                        self.filters,
                        self.path_filter,
                        self.known,
                        paths,
                        batch_size=self.batch_size,
                    )
                else:
                    continue
                full = False
                async with aclosing(self._drain(batches)) as drained:  # closes the plan early
                    async for batch in drained:
                        if batch.is_empty():
                            continue
                        yield batch
                        batch.apply_to(self.known)  # reached only when the consumer asks again
                if not self.stop_event.is_set():
                    self.synced = True
                    self.pending = 0  # every batch was taken, i.e. published by the consumer
        finally:
            self.dir_watch = None
            dir_watch.close()


def _next_or_none(iterator: Iterator[T]) -> T | None:
    return next(iterator, None)
