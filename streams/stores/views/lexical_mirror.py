"""Keeping a table's in-memory postings (views/lexical.py) in step with SQLite.

A mirror is built in a background thread from the FTS table, then caught up before each query
from `lexical_changes` (rows the view sink inserted or deleted since). `current()` returns
None whenever the mirror cannot answer for this read right now (not built yet, too far behind,
the change log trimmed past it): the caller then scores in SQL, which ranks the same.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator

from streams.stores.views.lexical import DocTerms, MirrorSpec, Snapshot, doc_terms
from streams.stores.views.lexical_build import BaseBuilder, Row, release_freed_heap

log = logging.getLogger(__name__)

Read = Callable[[Callable[[sqlite3.Connection], None]], None]  # a store's read, in a thread

CATCH_UP_LIMIT = 512  # logged changes applied inside a query's read; more go to a rebuild
DELTA_LIMIT = 2048  # changed documents kept beside the base before a rebuild folds them in
BUILD_BATCH = 1024  # rows read per step of a build (it stops early when the store closes)
BUILD_BATCH_CHARS = 16 << 20  # and at most about this many characters of terms (large files)
FETCH_ROWS = 64


# Two subqueries, not `SELECT min(seq), max(seq)`: SQLite answers a lone min() or max() from
# the primary key's b-tree, but both in one select scan the whole change log.
_SEQ_RANGE = "SELECT (SELECT min(seq) FROM lexical_changes), (SELECT max(seq) FROM lexical_changes)"


class MirrorClosed(Exception):
    """The store closed while a build was reading it."""


class LexicalMirror:
    """One FTS table's postings in memory, for one view store."""

    def __init__(self, spec: MirrorSpec, read: Read) -> None:
        self.spec = spec
        self._read = read
        self._lock = threading.Lock()
        self._snapshot: Snapshot | None = None
        self._seq = 0
        # one builder thread per mirror for its life: it reuses one reader connection
        self._builder: threading.Thread | None = None
        self._wanted = threading.Event()
        self._busy = False
        self._landed = threading.Condition(self._lock)
        self._closed = threading.Event()

    # -- the query side ----------------------------------------------------------------------

    def current(self, conn: sqlite3.Connection) -> Snapshot | None:
        """The mirror caught up with what `conn` reads, or None: score in SQL this time."""
        with self._lock:
            snapshot = self._snapshot
            if snapshot is None:
                self._start_build()
                return None
            low, high = conn.execute(_SEQ_RANGE).fetchone()
            if high is None or high <= self._seq:
                return snapshot  # nothing new (or this read's snapshot is older than the mirror)
            if low is not None and low > self._seq + 1:
                self._start_build()  # the log was trimmed past the mirror: rebuild
                return None
            changed = _changed_docs(conn, self.spec, self._seq, CATCH_UP_LIMIT + 1)
            if len(changed) > CATCH_UP_LIMIT:
                self._start_build()
                return None
            snapshot = _apply(snapshot, _load_docs(conn, self.spec, changed), changed)
            self._snapshot, self._seq = snapshot, int(high)
            if len(snapshot.delta) > DELTA_LIMIT:
                self._start_build()
            return snapshot

    def close(self) -> None:
        """Stop a build in flight and the builder thread (the store is closing)."""
        self._closed.set()
        self._wanted.set()

    @property
    def building(self) -> bool:
        return self._busy or (self._wanted.is_set() and not self._closed.is_set())

    def stopped(self, timeout: float) -> bool:
        """Whether the builder thread has exited (after close), waiting up to `timeout`."""
        builder = self._builder
        if builder is not None:
            builder.join(timeout)
        return builder is None or not builder.is_alive()

    def wait_built(self, timeout: float) -> bool:
        """Until no build is pending and one has landed (tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            if self._snapshot is None:
                self._start_build()
            while self._snapshot is None or self.building:
                left = deadline - time.monotonic()
                if left <= 0 or self._closed.is_set():
                    return False
                self._landed.wait(left)
            return True

    # -- the build ---------------------------------------------------------------------------

    def _start_build(self) -> None:
        """Ask the builder thread for a rebuild (called under the lock). A build in flight
        already reads every row; what changes after its read is caught up when it lands."""
        if self._closed.is_set() or self._busy:
            return
        self._wanted.set()
        if self._builder is None:
            self._builder = threading.Thread(
                target=self._serve_builds, name=f"lexical-{self.spec.fts}", daemon=True
            )
            self._builder.start()

    def _serve_builds(self) -> None:
        while not self._closed.is_set():
            if not self._wanted.wait(timeout=1.0) or self._closed.is_set():
                continue
            with self._lock:
                self._busy = True
                self._wanted.clear()
            try:
                self._build()
            finally:
                with self._lock:
                    self._busy = False
                    self._landed.notify_all()

    def _build(self) -> None:
        started = time.monotonic()
        try:
            result: list[tuple[int, Snapshot]] = []
            self._read(lambda conn: result.append(self._build_from(conn)))
        except MirrorClosed:
            return
        except Exception:  # a failed build leaves search on its SQL path; the next query retries
            if self._closed.is_set():
                return
            log.exception("building the in-memory index of %s failed", self.spec.fts)
            return
        seq, snapshot = result[0]
        with self._lock:
            if seq >= self._seq or self._snapshot is None:
                self._snapshot, self._seq = snapshot, seq
        log.info(
            "in-memory index of %s: %d documents, %d terms in %.1f s",
            self.spec.fts,
            len(snapshot.base.paths),
            len(snapshot.base.vocab),
            time.monotonic() - started,
        )

    def _build_from(self, conn: sqlite3.Connection) -> tuple[int, Snapshot]:
        """Every document of the table as of the log position read first (rows changed after
        it are re-read by the next catch-up, so reading a newer row here is harmless)."""
        row = conn.execute("SELECT max(seq) FROM lexical_changes").fetchone()
        seq = int(row[0] or 0)
        builder = BaseBuilder(self.spec)
        for batch in _scan(conn, self.spec):
            if self._closed.is_set():
                raise MirrorClosed
            builder.add_batch(batch)
        base = builder.build()
        del builder
        release_freed_heap()
        tokens = int(base.lengths.sum())
        return seq, Snapshot(base, base.alive, {}, len(base.paths), tokens)


def _select(spec: MirrorSpec) -> str:
    """Documents with their indexed columns, read from the table's external content."""
    columns = ", ".join(f"s.{c}" for c in spec.columns)
    return (
        f"SELECT d.id, d.repo_id, d.path, {columns} FROM {spec.docs} d "
        f"JOIN {spec.source} s ON s.id = d.id"
    )


def _scan(conn: sqlite3.Connection, spec: MirrorSpec) -> Iterator[list[Row]]:
    """Every document in batches of at most BUILD_BATCH rows and about BUILD_BATCH_CHARS
    characters (a repository of large files is read a few files at a time)."""
    cursor = conn.execute(_select(spec) + " ORDER BY d.id")
    batch: list[Row] = []
    chars = 0
    while rows := cursor.fetchmany(FETCH_ROWS):
        for r in rows:
            texts = tuple(r[3:])
            batch.append((int(r[0]), str(r[1]), str(r[2]), texts))
            chars += sum(len(text or "") for text in texts)
        if len(batch) >= BUILD_BATCH or chars >= BUILD_BATCH_CHARS:
            yield batch
            batch, chars = [], 0
    if batch:
        yield batch


def _changed_docs(conn: sqlite3.Connection, spec: MirrorSpec, after: int, limit: int) -> list[int]:
    rows = conn.execute(
        "SELECT DISTINCT doc FROM lexical_changes WHERE seq > ? AND fts = ? LIMIT ?",
        (after, spec.fts, limit),
    )
    return [int(r[0]) for r in rows]


def _load_docs(conn: sqlite3.Connection, spec: MirrorSpec, ids: list[int]) -> dict[int, DocTerms]:
    """The current version of each document still present (a deleted one is absent)."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(_select(spec) + f" WHERE d.id IN ({marks})", ids)
    return {int(r[0]): doc_terms(spec, str(r[1]), str(r[2]), tuple(r[3:])) for r in rows}


def _apply(snapshot: Snapshot, loaded: dict[int, DocTerms], changed: list[int]) -> Snapshot:
    """A new snapshot: each changed document's old version out, its current one (if any) in."""
    base = snapshot.base
    alive = snapshot.alive
    delta = dict(snapshot.delta)
    rows, tokens = snapshot.rows, snapshot.tokens
    copied = False
    for doc_id in changed:
        old = delta.pop(doc_id, None)
        if old is not None:
            rows, tokens = rows - 1, tokens - old.length
        row = base.row(doc_id)
        if row is not None and alive[row]:
            if not copied:
                alive, copied = alive.copy(), True
            alive[row] = False
            rows, tokens = rows - 1, tokens - int(base.lengths[row])
        new = loaded.get(doc_id)
        if new is not None:
            delta[doc_id] = new
            rows, tokens = rows + 1, tokens + new.length
    return Snapshot(base, alive, delta, rows, tokens)
