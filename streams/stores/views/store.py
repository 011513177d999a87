"""ViewStore: the SQLite views (WAL) the view sink materialises and query_api reads.

Exactly-once materialisation: `apply` writes a batch of records AND the sink's next offsets
in one transaction, so after a crash the views and the offsets agree and the sink resumes
from the first record the views have not seen.

Threading: one writer connection, shared by the asyncio thread and worker threads
(`check_same_thread=False`) and serialised by a lock (SQLite serialises writers anyway, and
one connection keeps transactions simple). Each reading thread has a read-only connection of
its own, which in WAL mode reads the last committed snapshot; reads are counted (so close can
wait them out) under a second lock, never the writer's, so a search does not wait for the
sink's transaction in flight.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from pydantic import BaseModel

from streams.errors import StoreError, store_busy
from streams.stores.lock_holder import write_lock_holder
from streams.stores.read_budget import PROGRESS_STEPS, ReadInterrupted, current_budget
from streams.stores.views import read as views_read
from streams.stores.views.lexical import MirrorSpec
from streams.stores.views.lexical_mirror import LexicalMirror
from streams.stores.views.read import ContentRow, FileRow, RepoRow
from streams.stores.views.registry import Item, ViewRegistry
from streams.stores.views.schema import (
    READER_CACHE_MIB,
    WRITER_CACHE_MIB,
    SchemaMismatch,
    check_schema_version,
    open_connection,
)

T = TypeVar("T")
Record = tuple[str, str | None, BaseModel | None]  # (topic, key, value); None = tombstone
DEFAULT_GROUP = "views"
log = logging.getLogger(__name__)


CLOSE_WAIT_S = 10.0  # at most this long for reads in flight when the store closes
COMPACT_CACHE_MIB = 2  # the page cache of a compaction's two files (no faster with more)


class ViewStore:
    """The views of one data directory: write with `apply`, read with the typed methods.

    `registry` decides which tables exist and which topics are applied. The caller passes it
    (`handlers.default_registry()` holds every record family), so the store knows no family
    and the family modules may import the store.
    """

    def __init__(self, path: str | Path, registry: ViewRegistry) -> None:
        self.path = str(path)
        self.registry = registry
        self._lock = threading.RLock()
        # Readers get their own connection per thread: in WAL mode they read the last
        # committed snapshot while the sink writes, so a search never waits on an apply.
        self._readers = threading.local()
        self._reader_conns: list[sqlite3.Connection] = []
        self._separate_readers = self.path not in ("", ":memory:")
        # Closing a connection while another thread runs a query on it can crash SQLite (a
        # cancelled task's to_thread read keeps running): close waits for reads in flight.
        # Reads count themselves under a lock of their own: under the write lock, every read
        # waited for the sink's transaction in flight to commit. Order: _lock, then this.
        self._reads_lock = threading.Lock()
        self._active_reads = 0
        self._reads_idle = threading.Condition(self._reads_lock)
        self._closed = False
        self._mirrors: dict[MirrorSpec, LexicalMirror] = {}
        # Moves as every write starts and again as it ends (odd while one is in flight); every
        # write to the views is `_write`'s. What a read found at an even generation still holds
        # while the generation stays there (views/symbols.py FileSymbolsCache).
        self.generation = 0
        # The schema version of the file this store replaced because this build writes another
        # one (None: opened as it was): its tables are empty and the view sink re-applies the
        # log from the start (streams/runtime/views_rebuild.py reports how far it got).
        self.rebuilt_from: int | None = None
        # Built from empty by this process (a new file, or one replaced below): compacted
        # once the sink has caught up (compact_first_build).
        self._fresh = self._separate_readers and not Path(self.path).is_file()
        try:
            self._conn = self._open_schema()
        except SchemaMismatch as exc:
            self.rebuilt_from = exc.found
            self._fresh = True
            log.warning("%s: starting a new views file and rebuilding it from the log", exc)
            for suffix in ("", "-wal", "-shm"):  # a projection: the log holds what it held
                Path(self.path + suffix).unlink(missing_ok=True)
            self._conn = self._open_schema()

    def _open_schema(self) -> sqlite3.Connection:
        """The writer connection, with every registered table created; SchemaMismatch (with
        nothing changed) for a file another schema version wrote."""
        try:
            conn = open_connection(self.path)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the view store at {self.path}: {exc}") from exc
        try:
            conn.execute("BEGIN IMMEDIATE")
            check_schema_version(conn, self.path)
            for statement in self.registry.ddl:
                conn.execute(statement)
            conn.execute("COMMIT")
        except BaseException as exc:
            conn.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open the view store at {self.path}: {exc}") from exc
            raise
        return conn

    # -- lifecycle -------------------------------------------------------------------------

    def integrity_check(self) -> None:
        """Raise StoreError unless SQLite's quick_check passes (a damaged file is rebuilt)."""
        rows = self.read(lambda c: c.execute("PRAGMA quick_check").fetchall())
        if [tuple(r) for r in rows] != [("ok",)]:
            raise StoreError(f"view store {self.path} failed its integrity check: {rows[:3]}")

    def mirror(self, spec: MirrorSpec) -> LexicalMirror:
        """The in-memory postings of one full-text table (views/lexical.py), made on first use:
        only a process that searches pays for them."""
        with self._reads_lock:  # every search asks: never behind a write in flight
            found = self._mirrors.get(spec)
            if found is None:
                found = self._mirrors[spec] = LexicalMirror(spec, self.read)
            return found

    def mirrors_settling(self) -> bool:
        """Catch every in-memory index (lexical mirror) up with the views now, which starts
        the rebuild of one too far behind; True while one is being built or about to be."""
        mirrors = tuple(self._mirrors.values())
        for mirror in mirrors:
            if not mirror.building:
                self.read(mirror.current)
        return any(m.building for m in mirrors)

    def close(self) -> None:
        with self._lock:
            with self._reads_lock:
                if self._closed:
                    return
                self._closed = True
                mirrors = list(self._mirrors.values())
            for mirror in mirrors:
                mirror.close()
            with self._reads_lock:
                self._reads_idle.wait_for(lambda: self._active_reads == 0, timeout=CLOSE_WAIT_S)
                for reader in self._reader_conns:
                    reader.close()
                self._reader_conns.clear()
            self._conn.close()

    @property
    def built_from_empty(self) -> bool:
        """Whether this process built the file from empty and has not compacted it yet."""
        return self._fresh

    def compact_first_build(self) -> bool:
        """Rewrite a file this process built from empty, once, after the sink caught up with
        the log (a first index, a rebuild for another schema): its rows landed in random key
        order, so B-tree pages split half full (VACUUM took 5 MiB off spring-framework's 99,
        in under a second of CPU). Row ids keep (every id a view stores is an INTEGER PRIMARY
        KEY). False when the file was not new, was compacted already, or it failed."""
        with self._lock:
            if not self._fresh or self._closed:
                return False
            self._fresh = False
            self.generation += 1  # odd while it runs, as for any write
            # VACUUM copies the whole file into a temporary database first, which this
            # connection's temp_store = MEMORY would hold in memory, as large as the views
            # file at once: the copy goes to a temporary file instead (SQLITE_TMPDIR), and
            # both files' page caches stay small while it runs.
            self._conn.execute("PRAGMA temp_store = FILE")
            self._conn.execute(f"PRAGMA cache_size = -{COMPACT_CACHE_MIB * 1024}")
            try:
                self._conn.execute("VACUUM")
                # the rewrite went through the WAL: hand its pages back (waits out readers)
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.warning("the views were not compacted (they stay as they are): %s", exc)
                return False
            finally:
                self._conn.execute("PRAGMA temp_store = MEMORY")
                self._conn.execute(f"PRAGMA cache_size = -{WRITER_CACHE_MIB * 1024}")
                self.generation += 1
            return True

    def release_memory(self) -> bool:
        """Empty every connection's page cache (`PRAGMA shrink_memory`) once the work that
        filled it is done: a cache keeps its pages for good otherwise. Only with no read in
        flight (the lock holds new ones back meanwhile); False when one was, or closed."""
        with self._lock, self._reads_lock:
            if self._closed or self._active_reads:
                return False
            for conn in (self._conn, *self._reader_conns):
                conn.execute("PRAGMA shrink_memory")
            return True

    def _reader(self) -> sqlite3.Connection | None:
        if not self._separate_readers:
            return None
        conn: sqlite3.Connection | None = getattr(self._readers, "conn", None)
        if conn is None:
            conn = open_connection(self.path, cache_mib=READER_CACHE_MIB)
            conn.execute("PRAGMA query_only = ON")
            self._readers.conn = conn
            with self._reads_lock:
                self._reader_conns.append(conn)
        return conn

    def __enter__(self) -> ViewStore:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT under the lock; any exception rolls everything back."""
        with self._lock:
            self.generation += 1  # odd: a write is in flight
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            finally:
                self.generation += 1

    def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            with self._transaction() as conn:
                return fn(conn)
        except sqlite3.Error as exc:
            # a lock another process holds: say whose (a shell or backup tool left open)
            holder = write_lock_holder(self.path) if store_busy(exc) else None
            held = f" (the write lock is held by {holder})" if holder else ""
            raise StoreError(f"view store write failed: {exc}{held}") from exc

    def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run a read function of a store module under the lock (for streams.stores only)."""
        try:
            with self._reads_lock:
                if self._closed:
                    raise StoreError(f"the view store at {self.path} is closed")
                self._active_reads += 1
            try:
                reader = self._reader()
                if reader is not None:
                    return _bounded(reader, fn)
                with self._lock:  # an in-memory store has one connection: the writer's
                    return _bounded(self._conn, fn)
            finally:
                with self._reads_lock:
                    self._active_reads -= 1
                    if not self._active_reads:
                        self._reads_idle.notify_all()
        except sqlite3.Error as exc:
            raise StoreError(f"view store read failed: {exc}") from exc

    # -- the sink's write API --------------------------------------------------------------

    def apply(
        self,
        records: Sequence[Record],
        offsets: Mapping[tuple[str, int], int],
        group: str = DEFAULT_GROUP,
    ) -> None:
        """Apply records in order and store `offsets` (next offset per (topic, partition)) in
        ONE transaction. Topics without a handler are skipped (their offsets still advance).
        Raises StoreError (or the handler's error) with nothing applied."""

        def run(conn: sqlite3.Connection) -> None:
            for topic, items in _runs(records):
                handler = self.registry.handler_for(topic)
                if handler is not None:
                    handler(conn, items)
            conn.executemany(
                """INSERT INTO sink_offsets ("group", topic, partition, next_offset)
                   VALUES (?, ?, ?, ?) ON CONFLICT ("group", topic, partition)
                   DO UPDATE SET next_offset = excluded.next_offset""",
                [(group, topic, part, nxt) for (topic, part), nxt in offsets.items()],
            )

        self._write(run)

    def committed(self, group: str, topic: str, partition: int) -> int:
        """The next offset `group` must read on (topic, partition); 0 when never committed."""
        row = self.read(
            lambda c: c.execute(
                """SELECT next_offset FROM sink_offsets
                   WHERE "group" = ? AND topic = ? AND partition = ?""",
                (group, topic, partition),
            ).fetchone()
        )
        return 0 if row is None else int(row[0])

    def offsets(self, group: str = DEFAULT_GROUP) -> dict[tuple[str, int], int]:
        rows = self.read(
            lambda c: c.execute(
                'SELECT topic, partition, next_offset FROM sink_offsets WHERE "group" = ?',
                (group,),
            ).fetchall()
        )
        return {(r[0], r[1]): r[2] for r in rows}

    def total_applied(self, group: str = DEFAULT_GROUP) -> int:
        """Sum of the group's next offsets: the log position the views reflect (freshness)."""
        return sum(self.offsets(group).values())

    def reset_repo(self, repo_id: str) -> dict[str, int]:
        """Delete the repository's code index (every code_index tree; never memory), keep it
        listed with lastIngested/indexedCommit cleared. Returns rows deleted per tree, in the
        registry's order."""

        def run(conn: sqlite3.Connection) -> dict[str, int]:
            counts = self.registry.delete_repo_rows(conn, repo_id, code_index_only=True)
            conn.execute(
                "UPDATE repos SET last_ingested = NULL, indexed_commit = NULL WHERE repo_id = ?",
                (repo_id,),
            )
            return counts

        return self._write(run)

    # -- read API --------------------------------------------------------------------------

    def list_repos(self) -> list[RepoRow]:
        """Registered repositories in ascending repoId order."""
        return self.read(views_read.list_repos)

    def get_repo(self, repo_id: str) -> RepoRow | None:
        return self.read(lambda c: views_read.get_repo(c, repo_id))

    def file_count(self, repo_id: str) -> int:
        return self.read(lambda c: views_read.file_count(c, repo_id))

    def text_file_count(self, repo_id: str) -> int:
        return self.read(lambda c: views_read.text_file_count(c, repo_id))

    def content_count(self, repo_id: str) -> int:
        return self.read(lambda c: views_read.content_count(c, repo_id))

    def text_file_sizes(self, repo_id: str) -> list[tuple[str, int, bool]]:
        return self.read(lambda c: views_read.text_file_sizes(c, repo_id))

    def text_files_version(self, repo_id: str) -> tuple[int, int, float]:
        return self.read(lambda c: views_read.text_files_version(c, repo_id))

    def get_file(self, repo_id: str, path: str) -> FileRow | None:
        return self.read(lambda c: views_read.get_file(c, repo_id, path))

    def get_content(self, repo_id: str, path: str) -> ContentRow | None:
        return self.read(lambda c: views_read.get_content(c, repo_id, path))

    def files_under(
        self, repo_id: str, prefix: str = "", after: str | None = None, limit: int = 100
    ) -> list[FileRow]:
        """A page of files under a path prefix (plain string prefix), ascending by path;
        pass the last path of a page as `after` to get the next one."""
        return self.read(lambda c: views_read.files_under(c, repo_id, prefix, after, limit))


def _bounded(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run `fn` under the caller's read budget, if any: SQLite abandons the statement when
    the budget runs out (ReadInterrupted), and the connection stays usable."""
    budget = current_budget()
    if budget is None:
        return fn(conn)
    if budget.exhausted():
        raise ReadInterrupted(budget.why())
    conn.set_progress_handler(budget.exhausted, PROGRESS_STEPS)
    try:
        return fn(conn)
    except sqlite3.OperationalError as exc:
        if budget.exhausted() and "interrupt" in str(exc):
            raise ReadInterrupted(budget.why()) from exc
        raise
    finally:
        conn.set_progress_handler(None, 0)


def _runs(records: Sequence[Record]) -> Iterator[tuple[str, list[Item]]]:
    """Consecutive records of one topic, batched: batching keeps executemany per topic while
    the order across topics (a repo tombstone after its files) is preserved exactly."""
    for topic, run in groupby(records, key=itemgetter(0)):
        yield topic, [(key, value) for _, key, value in run]
