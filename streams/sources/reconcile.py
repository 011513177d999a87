"""Diff the disk against the manifest and stream what to publish, in bounded batches.

`plan_changes` runs the reference's two phases: a serial stat-only discovery (cheap, and it
gives the progress bar its total) then reading only what the stat fast path cannot vouch for,
on a small thread pool (file reads release the GIL). Results come back in path order as
`ChangeBatch`es of at most `batch_size` events, so a caller can publish 30k files without
holding 30k bodies. Deletions are inferred from absence: a manifest path the walk no longer
yields (gone, now ignored, now binary, now unreadable) is removed.

Bookkeeping travels with each batch (`record`/`forget`); the caller applies it to the
`Manifest` only after the batch's events are in the log, so a crash re-publishes instead of
losing an update.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from schemas.events import WalkFilters
from streams.sources.ignore import PathFilter
from streams.sources.manifest import ManifestRow
from streams.sources.walker import FileSnapshot, ReadResult, Skipped, WalkEntry, read_file, walk

DEFAULT_BATCH_SIZE = 256  # the reference's atomic apply chunk
RACY_WINDOW_NS = 2_000_000_000  # mtimes this close to the read are not trusted (coarse clocks)
_PROGRESS_EVERY = 64
_READ_CHUNK = 32

ProgressCallback = Callable[[int, int | None], None]


def default_workers() -> int:
    """Reader threads: the CPUs this process may use (the container's grant, not the host's)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus * 2, 8))


MAX_NAMED_UNREADABLE = 20


@dataclass
class PlanCounts:
    """Per-pass totals; `scanned` counts files discovery found (each is then exactly one of
    added, updated, unchanged, skipped, or removed when it stopped being publishable)."""

    scanned: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    skipped: int = 0
    # files and directories that exist but could not be read (permission, I/O error); the
    # first few paths, so the job can name them
    unreadable: int = 0
    unreadable_paths: list[str] = field(default_factory=list)
    # `skipped` by reason (binary, permission, unreadable, vanished, symlink, not-regular,
    # undecodable-name)
    skipped_by: dict[str, int] = field(default_factory=dict)
    # ignore lines dropped (rule limits, refused patterns, a file's size cut) and the first
    # few ignore files that lost them
    ignore_rules_dropped: int = 0
    ignore_rules_dropped_paths: list[str] = field(default_factory=list)

    def skip(self, reason: str) -> None:
        self.skipped += 1
        self.skipped_by[reason] = self.skipped_by.get(reason, 0) + 1

    def rules_dropped(self, by_file: Mapping[str, int]) -> None:
        """The ignore lines the walk's filter dropped (past the rule limits, refused, past a
        file's size cut), by ignore file: files they would hide may be indexed."""
        self.ignore_rules_dropped = sum(by_file.values())
        self.ignore_rules_dropped_paths = sorted(by_file)[:MAX_NAMED_UNREADABLE]

    def cannot_read(self, path: str) -> None:
        self.unreadable += 1
        if len(self.unreadable_paths) < MAX_NAMED_UNREADABLE:
            self.unreadable_paths.append(path)

    def as_dict(self) -> dict[str, int]:
        return {
            "filesScanned": self.scanned,
            "filesAdded": self.added,
            "filesUpdated": self.updated,
            "filesRemoved": self.removed,
            "filesUnchanged": self.unchanged,
            "filesSkipped": self.skipped,
            "filesUnreadable": self.unreadable,
        }


@dataclass
class ChangeBatch:
    """Events to publish plus the manifest bookkeeping to apply once they are in the log."""

    upserts: list[FileSnapshot] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)  # publish a tombstone for each
    record: dict[str, ManifestRow] = field(default_factory=dict)
    forget: list[str] = field(default_factory=list)

    @property
    def event_count(self) -> int:
        return len(self.upserts) + len(self.deletes)

    def is_empty(self) -> bool:
        return not (self.upserts or self.deletes or self.record or self.forget)

    def apply_to(self, known: dict[str, ManifestRow]) -> None:
        """Bring an in-memory manifest up to date with this (published) batch."""
        for path in self.forget:
            known.pop(path, None)
        known.update(self.record)


def fast_path_ok(entry: WalkEntry, row: ManifestRow | None) -> bool:
    """Same size and mtime as last read, and that mtime clearly predates the read."""
    return (
        row is not None
        and row.size == entry.size
        and row.mtime_ns == entry.mtime_ns
        and entry.mtime_ns < row.anchor_ns - RACY_WINDOW_NS
    )


class Classifier:
    """Turns read results into a stream of batches; shared by the planner and the watcher."""

    def __init__(self, known: Mapping[str, ManifestRow], batch_size: int, counts: PlanCounts):
        self.known = known
        self.batch_size = max(1, batch_size)
        self.counts = counts
        self.batch = ChangeBatch()
        self.done: set[str] = set()  # each path is classified once per pass

    def take_if_full(self) -> ChangeBatch | None:
        full = self.batch.event_count >= self.batch_size
        if full or len(self.batch.record) + len(self.batch.forget) >= 16 * self.batch_size:
            return self.take()
        return None

    def take(self) -> ChangeBatch:
        batch, self.batch = self.batch, ChangeBatch()
        return batch

    def gone(self, path: str) -> None:
        """The path is not (or no longer) publishable: tombstone it if it was published."""
        row = self.known.get(path)
        if row is None or path in self.done:
            return
        self.done.add(path)
        if row.published:
            self.batch.deletes.append(path)
            self.counts.removed += 1
        self.batch.forget.append(path)

    def classify(self, entry: WalkEntry, result: ReadResult | None, anchor_ns: int) -> None:
        """Classify one discovered file; `result` None means the fast path vouched for it."""
        if entry.path in self.done:
            return
        row = self.known.get(entry.path)
        was_published = row is not None and row.published
        if result is None and row is not None and row.digest is None:
            self.counts.skip("binary")  # the fast path vouched for a binary it left out before
        elif result is None:
            self.counts.unchanged += 1
        elif isinstance(result, FileSnapshot):
            if row is not None and row.digest == result.digest:
                self.counts.unchanged += 1  # touched but byte-identical: bookkeeping only
            else:
                self.batch.upserts.append(result)
                if was_published:
                    self.counts.updated += 1
                else:
                    self.counts.added += 1
            new_row = ManifestRow(
                result.size, result.mtime_ns, result.digest, result.read_started_ns
            )
            if new_row != row:
                self.batch.record[entry.path] = new_row
        elif result.reason == "binary":  # remembered, so an unchanged binary is not re-sniffed
            self.batch.record[entry.path] = ManifestRow(entry.size, entry.mtime_ns, None, anchor_ns)
            if was_published:
                self.batch.deletes.append(entry.path)
                self.counts.removed += 1
            else:
                self.counts.skip("binary")
        else:  # vanished, unreadable, swapped for a symlink: not publishable any more
            if result.reason in ("permission", "unreadable"):
                self.counts.cannot_read(entry.path)
            if not was_published:
                self.counts.skip(result.reason)
            self.gone(entry.path)
        self.done.add(entry.path)


_Read = tuple[WalkEntry, ReadResult | None, int]


def _read_chunk(
    root: Path, chunk: list[tuple[WalkEntry, bool]], exclude_binary: bool
) -> list[_Read]:
    out: list[_Read] = []
    for entry, needs_read in chunk:
        anchor = time.time_ns()
        result = read_file(root, entry.path, exclude_binary=exclude_binary) if needs_read else None
        out.append((entry, result, anchor))
    return out


def read_in_order(
    root: Path, entries: Iterable[tuple[WalkEntry, bool]], exclude_binary: bool, workers: int
) -> Iterator[_Read]:
    """(entry, result or None when not read, anchor) in input order, reading ahead on threads.

    Work goes out in chunks of files: per-file futures cost more than a warm-cache read.
    """
    source = iter(entries)
    chunks = iter(lambda: list(islice(source, _READ_CHUNK)), [])
    if workers <= 1:
        for chunk in chunks:
            yield from _read_chunk(root, chunk, exclude_binary)
        return
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="repocontext-read")
    window: deque[Future[list[_Read]]] = deque()
    try:
        for chunk in chunks:
            window.append(pool.submit(_read_chunk, root, chunk, exclude_binary))
            if len(window) >= workers * 2:
                yield from window.popleft().result()
        while window:
            yield from window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def plan_changes(
    root: Path,
    filters: WalkFilters,
    known: Mapping[str, ManifestRow],
    *,
    force_read: bool = False,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_progress: ProgressCallback | None = None,
    workers: int | None = None,
    path_filter: PathFilter | None = None,
    counts: PlanCounts | None = None,
) -> Iterator[ChangeBatch]:
    """Reconcile `root` against `known` and yield the batches that bring the log up to date.

    Batches with no events may still carry bookkeeping (touched files, binaries) and should be
    applied to the manifest like the others. `counts` (pass your own to read them afterwards)
    is final once the iterator is exhausted. `on_progress(scanned, total)` is called with
    total = number of files discovered. Raises SourceError if the root is unusable.
    """
    counts = counts if counts is not None else PlanCounts()
    known = dict(known)  # a snapshot: callers may update their own map while we stream
    denied: list[str] = []
    passed_over: list[Skipped] = []
    rules = path_filter if path_filter is not None else PathFilter(root, filters)
    entries = list(
        walk(root, filters, path_filter=rules, unreadable=denied, passed_over=passed_over)
    )
    counts.rules_dropped(rules.dropped_rules())
    for directory in denied:
        counts.cannot_read(directory + "/")
    for skipped in passed_over:
        counts.skip(skipped.reason)
    total = len(entries)
    counts.scanned = total
    if on_progress is not None:
        on_progress(0, total)
    classifier = Classifier(known, batch_size, counts)
    wanted = ((e, force_read or not fast_path_ok(e, known.get(e.path))) for e in entries)
    reader = read_in_order(root, wanted, filters.exclude_binary, workers or default_workers())
    for index, (entry, result, anchor) in enumerate(reader, start=1):
        classifier.classify(entry, result, anchor)
        if on_progress is not None and (index % _PROGRESS_EVERY == 0 or index == total):
            on_progress(index, total)
        if (batch := classifier.take_if_full()) is not None:
            yield batch
    for path in sorted(known.keys() - classifier.done):
        classifier.gone(path)
        if (batch := classifier.take_if_full()) is not None:
            yield batch
    if not classifier.batch.is_empty():
        yield classifier.take()
