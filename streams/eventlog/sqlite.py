"""Durable embedded EventLog (`sqlite:///path`): one SQLite file in WAL mode.

Threading: one connection, used only by one dedicated worker thread; every method awaits a
closure run there, so calls are serialised without a lock, the event loop never blocks on
disk and the connection never crosses threads. Background compaction runs on that thread in
short steps queued behind the call that triggered them, so an append waits for one step at most.

synchronous=NORMAL (default): in WAL mode every commit survives a process crash (kill -9) and
the file never corrupts; only an OS crash or power loss can drop the last commits. That keeps
the embedded runtime exactly-once across process crashes without an fsync per commit (FULL
caps commits at the disk's fsync rate); pass synchronous="FULL" to pay for power-loss safety.

Next offsets are read inside each write transaction (not cached), so a second process writing
the same file stays correct (it waits on the 30 s busy timeout).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal, ParamSpec, TypeVar

from schemas.topics import TopicSpec, partition_for
from streams.errors import EventLogError, StorageFull, storage_exhausted
from streams.eventlog import compaction as cp
from streams.eventlog.base import (
    EventLog,
    LogRecord,
    Positions,
    StoredRecord,
    TopicPartition,
    Transaction,
    within_budget,
)
from streams.eventlog.sqlite_values import (
    BLOBS,
    BLOBS_DDL,
    StoredValue,
    TopicDictionaries,
    blob_ids,
    split_value,
    stored_value,
)

P = ParamSpec("P")
T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS topics(name TEXT PRIMARY KEY, partitions INTEGER NOT NULL,
  cleanup TEXT NOT NULL, retention_ms INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS partitions(topic TEXT NOT NULL, partition INTEGER NOT NULL,
  next_offset INTEGER NOT NULL, cleaned_upto INTEGER NOT NULL,
  PRIMARY KEY(topic, partition)) WITHOUT ROWID;
-- rowid table: values reach megabytes. Value is last: metadata scans skip its overflow pages.
-- packed: how value is stored (NULL: as appended; 1: zlib; 2: spliced; 3, 4: the same with
-- the topic's zlib dictionary, see sqlite_values);
-- blob_ids: the blobs a spliced value's long string literals are kept in.
-- key_hash: compaction.key_hash(key), what the index by key holds (see _add_columns).
CREATE TABLE IF NOT EXISTS records(topic TEXT NOT NULL, partition INTEGER NOT NULL,
  offset INTEGER NOT NULL, key TEXT, ts_ms INTEGER NOT NULL, packed INTEGER, value BLOB,
  blob_ids TEXT, key_hash INTEGER, PRIMARY KEY(topic, partition, offset));
CREATE INDEX IF NOT EXISTS records_tombstones ON records(topic, partition, offset)
  WHERE value IS NULL AND key IS NOT NULL;
CREATE TABLE IF NOT EXISTS offsets("group" TEXT NOT NULL, topic TEXT NOT NULL,
  partition INTEGER NOT NULL, next_offset INTEGER NOT NULL,
  PRIMARY KEY("group", topic, partition)) WITHOUT ROWID;
"""
_INSERT = (
    "INSERT INTO records(topic, partition, offset, key, ts_ms, packed, value, blob_ids, key_hash) "
    "VALUES (?,?,?,?,?,?,?,?,?)"
)
# A new log's page size: records of 1-4 KiB (a packed body) leave ~20% of a 4 KiB leaf page
# empty, ~9% of a 16 KiB one; a bigger page costs each small commit more WAL bytes. A log
# keeps the page size it was made with (changing it takes a VACUUM of the whole file).
PAGE_SIZE = 16384
WAL_CHECKPOINT_BYTES = 4 << 20
_COMMIT_OFFSET = (
    'INSERT INTO offsets("group", topic, partition, next_offset) VALUES (?,?,?,?) '
    'ON CONFLICT("group", topic, partition) DO UPDATE SET next_offset = excluded.next_offset'
)


class SqliteEventLog(EventLog):
    """See the module docstring; `instance_id` is created with the file and never changes."""

    def __init__(
        self,
        path: str | Path,
        *,
        url: str | None = None,
        tombstone_retention_ms: int = cp.DEFAULT_TOMBSTONE_RETENTION_MS,
        compact_threshold: int = cp.DEFAULT_COMPACT_THRESHOLD,
        background_compaction: bool = True,
        synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
        clock: cp.Clock = cp.wall_clock_ms,
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise EventLogError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        self.path = Path(path)
        self.url = url or f"sqlite:///{self.path}"
        self._tombstone_retention_ms = tombstone_retention_ms
        self._threshold = max(1, compact_threshold)
        self._auto = background_compaction
        self._clock = clock
        self._topics: dict[str, cp.TopicConfig] = {}
        self._scheduled: set[TopicPartition] = set()
        self._closing = False
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="eventlog-sqlite")
        try:
            self.instance_id: str = self._executor.submit(self._open, synchronous).result()
        except BaseException:
            self._executor.shutdown()
            raise

    def _open(self, synchronous: str) -> str:
        conn: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
            if conn.execute("PRAGMA page_count").fetchone()[0] == 0:  # only before the first table
                conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
                conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
                raise EventLogError(f"{self.path}: cannot enable WAL mode")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("PRAGMA journal_size_limit=16777216")  # truncate a WAL past 16 MiB
            page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
            # checkpoint at 4 MiB of WAL whatever the page size (SQLite counts 1000 pages)
            conn.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_BYTES // page_size}")
            conn.executescript(
                f"BEGIN IMMEDIATE;{_SCHEMA}INSERT OR IGNORE INTO meta(name, value) "
                f"VALUES ('instance_id', '{uuid.uuid4().hex}');COMMIT;"
            )
            self._add_columns(conn)
            self._dictionaries = TopicDictionaries(conn)
            self._load_topics()
            return str(
                conn.execute("SELECT value FROM meta WHERE name='instance_id'").fetchone()[0]
            )
        except BaseException as exc:
            if conn is not None:
                conn.close()
            if isinstance(exc, OSError | sqlite3.Error):
                raise EventLogError(f"cannot open event log {self.path}: {exc}") from exc
            raise

    @staticmethod
    def _add_columns(conn: sqlite3.Connection) -> None:
        """Bring a log an older release wrote up to this layout (its records stay as stored)."""
        columns = {row[1] for row in conn.execute("PRAGMA table_info(records)")}
        with cp.write_tx(conn):
            if "packed" not in columns:  # written before values were packed
                conn.execute("ALTER TABLE records ADD COLUMN packed INTEGER")
            if "blob_ids" not in columns:  # written before long literals were kept once
                conn.execute("ALTER TABLE records ADD COLUMN blob_ids TEXT")
            if "key_hash" not in columns:  # written when the index by key held the key
                conn.execute("ALTER TABLE records ADD COLUMN key_hash INTEGER")
                rows = conn.execute("SELECT rowid, key FROM records WHERE key IS NOT NULL")
                conn.executemany(
                    "UPDATE records SET key_hash = ? WHERE rowid = ?",
                    [(cp.key_hash(key), rowid) for rowid, key in rows.fetchall()],
                )
            # the index compaction finds a key's older records by: its 8-byte hash, not the
            # ~100-byte key (a repository path) every record repeated in the index
            conn.execute("DROP INDEX IF EXISTS records_by_key")
            conn.execute(
                "CREATE INDEX IF NOT EXISTS records_by_key_hash ON records(topic, partition, "
                "key_hash, offset) WHERE key IS NOT NULL"
            )
            for statement in BLOBS_DDL:
                conn.execute(statement)

    def _load_topics(self) -> None:
        rows = self._conn.execute("SELECT name, partitions, cleanup, retention_ms FROM topics")
        self._topics = {name: cp.TopicConfig(n, c, r) for name, n, c, r in rows}

    def _topic(self, topic: str, partition: int | None = None) -> cp.TopicConfig:
        if topic not in self._topics:
            self._load_topics()  # another process may have created it
        if partition is None:
            return cp.topic_config(self._topics, topic)
        return cp.check_partition(self._topics, topic, partition)

    def _create_topics(self, specs: Sequence[TopicSpec]) -> None:
        self._load_topics()
        changes = cp.merge_specs(self._topics, specs)
        with cp.write_tx(self._conn):
            self._conn.executemany(
                "INSERT INTO topics VALUES (?,?,?,?) ON CONFLICT(name) DO UPDATE "
                "SET retention_ms = excluded.retention_ms",
                [(n, c.partitions, c.cleanup, c.retention_ms) for n, c in changes.items()],
            )
            self._conn.executemany(
                "INSERT OR IGNORE INTO partitions VALUES (?,?,0,0)",
                [(n, p) for n, c in changes.items() for p in range(c.partitions)],
            )
        self._topics.update(changes)

    def _apply(self, tx: Transaction) -> list[tuple[int, int]]:
        now = self._clock()
        routed: list[tuple[str, int, LogRecord]] = []
        for topic, record in tx.appends:
            cfg = self._topic(topic)
            cp.check_record(topic, record)
            routed.append((topic, partition_for(record.key, cfg.partitions), record))
        for group, offsets in tx.commits.items():
            for (topic, partition), offset in offsets.items():
                self._topic(topic, partition)
                cp.check_offset(group, offset)
        dictionaries = self._dictionaries
        for_blobs = dictionaries.of(BLOBS)
        values = [  # outside the lock
            split_value(record.value, dictionaries.of(topic), for_blobs)
            for topic, _, record in routed
        ]
        with cp.write_tx(self._conn):
            placed, due = self._insert_records(routed, values, now)
            self._write_offsets(tx.commits)
        for (topic, _, _), value in zip(routed, values, strict=True):
            dictionaries.sample(topic, value)
        dictionaries.make_due(self._conn)
        for tp in due:
            self._schedule(tp)
        return placed

    def _insert_records(
        self,
        routed: list[tuple[str, int, LogRecord]],
        values: list[StoredValue],
        now: int,
    ) -> tuple[list[tuple[int, int]], list[TopicPartition]]:
        """Insert in one executemany; returns placements and partitions due for compaction."""
        state: dict[TopicPartition, list[int]] = {}  # [next_offset, cleaned_upto]
        rows, placed = [], []
        for (topic, p, rec), value in zip(routed, values, strict=True):
            st = state.get((topic, p))
            if st is None:
                st = state[(topic, p)] = list(self._partition_row(topic, p))
            ts = now if rec.timestamp_ms is None else rec.timestamp_ms
            ids = blob_ids(self._conn, value.blobs)
            hashed = None if rec.key is None else cp.key_hash(rec.key)
            rows.append((topic, p, st[0], rec.key, ts, value.packing, value.stored, ids, hashed))
            placed.append((p, st[0]))
            st[0] += 1
        self._conn.executemany(_INSERT, rows)
        self._conn.executemany(
            "UPDATE partitions SET next_offset=? WHERE topic=? AND partition=?",
            [(st[0], t, p) for (t, p), st in state.items()],
        )
        due = [tp for tp, st in state.items() if self._auto and st[0] - st[1] >= self._threshold]
        return placed, due

    def _write_offsets(self, commits: Mapping[str, Mapping[TopicPartition, int]]) -> None:
        self._conn.executemany(
            _COMMIT_OFFSET,
            [(g, t, p, off) for g, offs in commits.items() for (t, p), off in offs.items()],
        )

    def _partition_row(self, topic: str, partition: int) -> tuple[int, int]:
        self._topic(topic, partition)
        row = self._conn.execute(
            "SELECT next_offset, cleaned_upto FROM partitions WHERE topic=? AND partition=?",
            (topic, partition),
        ).fetchone()
        return (int(row[0]), int(row[1]))

    def _read(
        self, topic: str, partition: int, start: int, limit: int, max_bytes: int | None = None
    ) -> list[StoredRecord]:
        self._topic(topic, partition)
        rows = self._conn.execute(
            "SELECT offset, key, ts_ms, packed, value, blob_ids FROM records WHERE topic=? AND "
            "partition=? AND offset>=? ORDER BY offset LIMIT ?",
            (topic, partition, start, max(0, limit)),
        ).fetchall()
        records = (
            StoredRecord(topic, partition, o, k, self._value(packing, v, ids), ts)
            for o, k, ts, packing, v, ids in rows
        )
        return within_budget(records, limit, max_bytes)

    def _value(self, packing: int | None, stored: bytes | None, ids: str | None) -> bytes | None:
        return stored_value(packing, stored, ids, self._conn, self._dictionaries.cache)

    def _positions(self, topics: Sequence[str], groups: Sequence[str]) -> Positions:
        for topic in topics:
            self._topic(topic)
        marks = ",".join("?" * len(topics)) or "NULL"
        ends = {
            (t, p): int(n)
            for t, p, n in self._conn.execute(
                f"SELECT topic, partition, next_offset FROM partitions WHERE topic IN ({marks})",
                list(topics),
            )
        }
        committed: dict[str, dict[TopicPartition, int]] = {
            g: dict.fromkeys(ends, 0) for g in groups
        }
        for g, t, p, n in self._conn.execute(
            f'SELECT "group", topic, partition, next_offset FROM offsets WHERE topic IN ({marks})',
            list(topics),
        ):
            if g in committed:
                committed[g][(t, p)] = int(n)
        return Positions(ends=ends, committed=committed)

    def _committed(self, group: str, topic: str, partition: int) -> int:
        self._topic(topic, partition)
        row = self._conn.execute(
            'SELECT next_offset FROM offsets WHERE "group"=? AND topic=? AND partition=?',
            (group, topic, partition),
        ).fetchone()
        return 0 if row is None else int(row[0])

    def _compact_step(self, topic: str, partition: int) -> tuple[int, bool]:
        cfg = self._topic(topic, partition)
        with cp.write_tx(self._conn):
            return cp.sqlite_compact_step(
                self._conn, topic, partition, cfg, self._clock(), self._tombstone_retention_ms
            )

    def _schedule(self, tp: TopicPartition) -> None:
        if not self._closing and tp not in self._scheduled:
            self._scheduled.add(tp)
            self._executor.submit(self._background_step, tp)

    def _background_step(self, tp: TopicPartition) -> None:
        if self._closing:
            return
        try:
            _, more = self._compact_step(*tp)
            if not more:
                cp.release_space(self._conn)
        except Exception:
            logging.getLogger(__name__).exception("background compaction of %s[%d] failed", *tp)
            more = False
        if more:
            self._executor.submit(self._background_step, tp)
        else:
            self._scheduled.discard(tp)

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if self._closing:
            raise EventLogError(f"event log {self.url} is closed")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor, functools.partial(fn, *args, **kwargs)
            )
        except sqlite3.Error as exc:
            if storage_exhausted(exc):
                raise StorageFull.at(self.path, exc) from exc
            raise EventLogError(f"event log {self.url}: {exc}") from exc

    async def create_topics(self, specs: Sequence[TopicSpec]) -> None:
        await self._run(self._create_topics, list(specs))

    async def partitions(self, topic: str) -> int:
        return (await self._run(self._topic, topic)).partitions

    async def append(self, topic: str, records: Sequence[LogRecord]) -> list[tuple[int, int]]:
        return await self._run(self._apply, Transaction(appends=[(topic, r) for r in records]))

    async def read(
        self,
        topic: str,
        partition: int,
        from_offset: int,
        max_records: int = 500,
        max_bytes: int | None = None,
    ) -> list[StoredRecord]:
        return await self._run(self._read, topic, partition, from_offset, max_records, max_bytes)

    async def end_offset(self, topic: str, partition: int) -> int:
        return (await self._run(self._partition_row, topic, partition))[0]

    async def committed(self, group: str, topic: str, partition: int) -> int:
        return await self._run(self._committed, group, topic, partition)

    async def positions(self, topics: Sequence[str], groups: Sequence[str]) -> Positions:
        return await self._run(self._positions, list(topics), list(groups))

    async def commit(self, group: str, offsets: Mapping[TopicPartition, int]) -> None:
        await self._run(self._apply, Transaction(commits={group: dict(offsets)}))

    async def apply(self, tx: Transaction) -> list[tuple[int, int]]:
        """One SQLite transaction; if the awaiting task is cancelled it may still commit."""
        return await self._run(self._apply, tx)

    async def integrity_problems(self) -> list[str]:
        """SQLite's quick_check of the log file (a few seconds per GiB; run at start)."""

        def check() -> list[str]:
            rows = self._conn.execute("PRAGMA quick_check").fetchall()
            return [] if [tuple(r) for r in rows] == [("ok",)] else [str(r[0]) for r in rows]

        return await self._run(check)

    async def compact(self, topic: str) -> int:
        removed = 0
        for p in range(await self.partitions(topic)):
            more = True
            while more:  # one step per executor call, so appends interleave
                n, more = await self._run(self._compact_step, topic, p)
                removed += n
        while await self._run(cp.release_space, self._conn):
            pass
        return removed

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True  # queued background steps now return at once
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._conn.close)
        await asyncio.to_thread(self._executor.shutdown)
