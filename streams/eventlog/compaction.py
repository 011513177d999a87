"""Topic policy and the compaction rules, shared by every backend so they agree exactly.

The pure `removable` is the reference (and the memory backend); `sqlite_compact_step` is
the same rules as incremental SQL.

Rules (Kafka-like, see DESIGN §3):
- `compact` topics keep the newest record per key and partition; records whose key is None
  are never compacted. A tombstone (value None) that is the newest for its key is removed only
  when every group that ever committed on the partition has committed past it AND it is at
  least `tombstone_retention_ms` old, so a consumer never misses a delete it is owed.
- `delete` topics drop records at least `retention_ms` old (never, when retention_ms is None).
- Offsets never change: removed records leave gaps, readers just skip them.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from schemas.topics import DAY_MS, Cleanup, TopicSpec
from streams.errors import EventLogError, UnknownTopicError
from streams.eventlog.base import LogRecord

Clock = Callable[[], int]
DEFAULT_TOMBSTONE_RETENTION_MS = DAY_MS
# Background compaction runs once a partition has this many records appended since its last
# run. Runs are incremental (they only revisit keys appended since), so a fixed threshold
# keeps the cost amortised O(log n) per append and bounds a partition to live keys + threshold.
DEFAULT_COMPACT_THRESHOLD = 1000


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class TopicConfig:
    """What a backend stores about a topic (the provisioning part of a TopicSpec)."""

    partitions: int
    cleanup: Cleanup
    retention_ms: int | None

    @classmethod
    def of(cls, spec: TopicSpec) -> TopicConfig:
        if spec.partitions < 1:
            raise EventLogError(f"topic {spec.name}: partitions must be >= 1")
        return cls(spec.partitions, spec.cleanup, spec.retention_ms)

    def conflict(self, name: str, wanted: TopicConfig) -> str | None:
        """Why `wanted` cannot be applied to this existing topic (retention may change)."""
        diffs = [
            f"{what} {have!r} != requested {want!r}"
            for what, have, want in (
                ("partitions", self.partitions, wanted.partitions),
                ("cleanup", self.cleanup, wanted.cleanup),
            )
            if have != want
        ]
        return f"topic {name} exists with {', '.join(diffs)}" if diffs else None


def merge_specs(
    existing: dict[str, TopicConfig], specs: Sequence[TopicSpec]
) -> dict[str, TopicConfig]:
    """The topics to create or update (retention), or EventLogError on any conflict."""
    changes: dict[str, TopicConfig] = {}
    for spec in specs:
        wanted = TopicConfig.of(spec)
        have = changes.get(spec.name) or existing.get(spec.name)
        if have is not None and (why := have.conflict(spec.name, wanted)):
            raise EventLogError(why)
        if have != wanted:
            changes[spec.name] = wanted
    return changes


def topic_config(topics: dict[str, TopicConfig], topic: str) -> TopicConfig:
    cfg = topics.get(topic)
    if cfg is None:
        raise UnknownTopicError(f"unknown topic {topic!r}; create it first")
    return cfg


def check_partition(topics: dict[str, TopicConfig], topic: str, partition: int) -> TopicConfig:
    cfg = topic_config(topics, topic)
    if not 0 <= partition < cfg.partitions:
        raise EventLogError(f"topic {topic} has {cfg.partitions} partitions, not {partition}")
    return cfg


def check_record(topic: str, record: LogRecord) -> None:
    """Reject wrong types early: SQLite would store them and hand back something else."""
    if record.key is not None and not isinstance(record.key, str):
        raise EventLogError(f"{topic}: key must be str or None, got {type(record.key).__name__}")
    if record.value is not None and not isinstance(record.value, bytes):
        raise EventLogError(
            f"{topic}: value must be bytes or None, got {type(record.value).__name__}"
        )


def check_offset(group: str, offset: int) -> None:
    if offset < 0:
        raise EventLogError(f"group {group}: committed offset must be >= 0, got {offset}")


# (offset, key, is_tombstone, timestamp_ms) in offset order
RecordMeta = tuple[int, str | None, bool, int]


def removable(
    records: Iterable[RecordMeta],
    cfg: TopicConfig,
    *,
    min_committed: int | None,
    now_ms: int,
    tombstone_retention_ms: int,
) -> set[int]:
    """Offsets one compaction run removes from a partition (the reference implementation).

    `min_committed` is the lowest next-offset of the groups that committed on the partition,
    None when no group ever did (then only the tombstone retention holds tombstones back).
    """
    metas = list(records)
    if cfg.cleanup == "delete":
        if cfg.retention_ms is None:
            return set()
        return {off for off, _, _, ts in metas if ts + cfg.retention_ms <= now_ms}
    newest: dict[str, int] = {}
    for off, key, _, _ in metas:
        if key is not None:
            newest[key] = off
    dead: set[int] = set()
    for off, key, tomb, ts in metas:
        if key is None:
            continue
        if off != newest[key] or (
            tomb
            and (min_committed is None or off < min_committed)
            and ts + tombstone_retention_ms <= now_ms
        ):
            dead.add(off)
    return dead


# -- the same rules in SQL, for the SQLite backend --------------------------------------------
# no "key IS NOT NULL" here: it would let the planner scan the whole (partial) key index
# instead of range-scanning the primary key over the chunk's offsets
NEW_KEYS = "SELECT key FROM records WHERE topic=? AND partition=? AND offset>=? AND offset<?"
# a key's records through the index of (topic, partition, key_hash, offset); the key itself is
# compared too, so two keys with one hash stay apart
_DELETE_OLDER = (
    "DELETE FROM records WHERE topic=?1 AND partition=?2 AND key_hash=?4 AND key=?3 AND offset <"
    " (SELECT MAX(offset) FROM records WHERE topic=?1 AND partition=?2 AND key_hash=?4"
    " AND key=?3)"
)
_DELETE_TOMBSTONES = (
    "DELETE FROM records WHERE rowid IN (SELECT rowid FROM records WHERE topic=? AND "
    "partition=? AND value IS NULL AND key IS NOT NULL AND offset<? AND ts_ms<=? LIMIT ?)"
)
_DELETE_EXPIRED = (
    "DELETE FROM records WHERE rowid IN (SELECT rowid FROM records WHERE topic=? AND "
    "partition=? AND ts_ms<=? LIMIT ?)"
)
CHUNK_OFFSETS = 2000  # offsets whose keys one compaction step de-duplicates
DELETE_BATCH = 2000  # tombstones / expired records one compaction step deletes
VACUUM_BYTES = 8 << 20  # what one incremental_vacuum returns to the OS at most
KEEP_FREE_BYTES = 1 << 20  # free pages below this are left for new rows


def key_hash(key: str) -> int:
    """What the SQLite log's index by key holds for `key`: 8 bytes of its BLAKE2b digest, as
    a signed 64-bit integer."""
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@contextmanager
def write_tx(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (autocommit connections)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def sqlite_compact_step(
    conn: sqlite3.Connection,
    topic: str,
    partition: int,
    cfg: TopicConfig,
    now_ms: int,
    tombstone_retention_ms: int,
) -> tuple[int, bool]:
    """One bounded step of compaction inside the caller's transaction; returns (records
    removed, more work left). Incremental: `cleaned_upto` marks the offsets whose keys were
    already de-duplicated, so a step only revisits keys appended since (CHUNK_OFFSETS at a
    time) and deletes their older versions through the (topic, partition, key) index."""
    end, cleaned = conn.execute(
        "SELECT next_offset, cleaned_upto FROM partitions WHERE topic=? AND partition=?",
        (topic, partition),
    ).fetchone()
    if cfg.cleanup == "delete":
        hi, removed = end, 0
        if cfg.retention_ms is not None:
            cutoff = now_ms - cfg.retention_ms
            removed = conn.execute(
                _DELETE_EXPIRED, (topic, partition, cutoff, DELETE_BATCH)
            ).rowcount
        more = removed == DELETE_BATCH
    else:
        hi = min(end, cleaned + CHUNK_OFFSETS)
        rows = conn.execute(NEW_KEYS, (topic, partition, cleaned, hi))
        keys = {k for (k,) in rows if k is not None}
        removed = conn.executemany(
            _DELETE_OLDER, [(topic, partition, k, key_hash(k)) for k in keys]
        ).rowcount
        more = hi < end
        if not more:  # no older versions remain, so the newest tombstones may go too
            (low,) = conn.execute(
                "SELECT MIN(next_offset) FROM offsets WHERE topic=? AND partition=?",
                (topic, partition),
            ).fetchone()
            upto = end if low is None else int(low)
            cutoff = now_ms - tombstone_retention_ms
            purged = conn.execute(
                _DELETE_TOMBSTONES, (topic, partition, upto, cutoff, DELETE_BATCH)
            ).rowcount
            removed, more = removed + purged, purged == DELETE_BATCH
    conn.execute(
        "UPDATE partitions SET cleaned_upto=? WHERE topic=? AND partition=?",
        (hi, topic, partition),
    )
    return max(0, removed), more


def release_space(conn: sqlite3.Connection) -> bool:
    """Give up to VACUUM_BYTES of freed pages back to the OS once they are a large share of the
    file; returns whether it did (call again for more). SQLite reuses free pages for new rows
    anyway, so this only matters after big deletions such as removing a repository."""
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    if free * page_size < KEEP_FREE_BYTES or free * 4 < pages:
        return False
    conn.execute(f"PRAGMA incremental_vacuum({VACUUM_BYTES // page_size})").fetchall()
    return bool(conn.execute("PRAGMA freelist_count").fetchone()[0] < free)  # else not INCREMENTAL
