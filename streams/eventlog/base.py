"""The EventLog interface that every backend implements and the contract suite tests.

Offsets are per (topic, partition), start at 0 and only grow; compaction leaves gaps.
A record's `value` of None is a tombstone. Committed offsets are "the next offset to read".
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from schemas.topics import TopicSpec
from streams.errors import UndecodableKey

TopicPartition = tuple[str, int]

# A key that is not UTF-8 reads back as this mark + its bytes escaped (`\\xfe`): no repository
# id can start with it, so it can never name a real file, and `refuse_undecodable_key` turns the
# record into a dead letter. Failing the read instead stalled the record's partition for good
# (every retry read the same record), in workers and replicas alike.
UNDECODABLE_KEY_MARK = "\ufffd"


def decode_key_text(raw: bytes) -> str:
    """A record key's text: UTF-8 as every writer encodes it, else the marked escape."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return UNDECODABLE_KEY_MARK + raw.decode("utf-8", "backslashreplace")


def refuse_undecodable_key(key: str | None) -> None:
    """Raise UndecodableKey for a key `decode_key_text` could not decode (a dead letter)."""
    if key is not None and key.startswith(UNDECODABLE_KEY_MARK):
        raise UndecodableKey(
            f"the record's key is not UTF-8 ({key[1:]!r}); no writer of this log makes one"
        )


@dataclass(frozen=True, slots=True)
class LogRecord:
    """Something to append. The partition is derived from the key (schemas.topics.partition_for)."""

    key: str | None
    value: bytes | None
    timestamp_ms: int | None = None  # None = the log's clock at append


@dataclass(frozen=True, slots=True)
class StoredRecord:
    topic: str
    partition: int
    offset: int
    key: str | None
    value: bytes | None
    timestamp_ms: int


# What one batch of a step reads at most by its records' values (besides its record count):
# 256 files of 1 Mi characters each are ~300 MB of JSON before a processor expands them.
BATCH_BYTES = 16 << 20


def within_budget(
    records: Iterable[StoredRecord], max_records: int, max_bytes: int | None
) -> list[StoredRecord]:
    """The first records up to max_records whose values fit in max_bytes together, at least
    one: a batch of large file bodies is cut by size, not only by count. It stops consuming
    `records` (a cursor) at the first record that does not fit."""
    out: list[StoredRecord] = []
    used = 0
    if max_records <= 0:
        return out
    for record in records:
        size = len(record.value or b"")
        if out and max_bytes is not None and used + size > max_bytes:
            break
        out.append(record)
        used += size
        if len(out) >= max_records:
            break
    return out


@dataclass(frozen=True, slots=True)
class Positions:
    """End offsets of some topics and the committed offsets of some groups, read together."""

    ends: dict[TopicPartition, int]
    committed: dict[str, dict[TopicPartition, int]]


@dataclass
class Transaction:
    """Work to apply atomically: appends plus offset commits of one consumer group.

    SQLite and memory apply it in one transaction (exactly-once); Kafka produces, then
    commits (at-least-once with idempotent consumers).
    """

    appends: list[tuple[str, LogRecord]] = field(default_factory=list)
    commits: dict[str, dict[TopicPartition, int]] = field(default_factory=dict)

    def append(self, topic: str, record: LogRecord) -> None:
        self.appends.append((topic, record))

    def commit(self, group: str, topic: str, partition: int, next_offset: int) -> None:
        self.commits.setdefault(group, {})[(topic, partition)] = next_offset


class EventLog(abc.ABC):
    """Append-only, partitioned, compacting log of events."""

    url: str
    # Every call is a network round trip (Kafka): readers ask for all end offsets at once and
    # skip caught-up partitions instead of asking partition by partition.
    remote: bool = False

    @abc.abstractmethod
    async def create_topics(self, specs: Sequence[TopicSpec]) -> None:
        """Create missing topics; idempotent. A differing existing topic is an EventLogError."""

    @abc.abstractmethod
    async def partitions(self, topic: str) -> int:
        """Number of partitions of a topic (UnknownTopicError if absent)."""

    @abc.abstractmethod
    async def append(self, topic: str, records: Sequence[LogRecord]) -> list[tuple[int, int]]:
        """Append records in order; returns (partition, offset) of each."""

    @abc.abstractmethod
    async def read(
        self,
        topic: str,
        partition: int,
        from_offset: int,
        max_records: int = 500,
        max_bytes: int | None = None,
    ) -> list[StoredRecord]:
        """Records with offset >= from_offset in offset order, at most max_records and, when
        max_bytes is given, no more than fit in it by their values' sizes (but at least one, so
        a reader always advances: see `within_budget`)."""

    @abc.abstractmethod
    async def end_offset(self, topic: str, partition: int) -> int:
        """The offset the next appended record will get (high-water mark)."""

    @abc.abstractmethod
    async def committed(self, group: str, topic: str, partition: int) -> int:
        """The group's committed next-offset; 0 when it never committed."""

    @abc.abstractmethod
    async def commit(self, group: str, offsets: Mapping[TopicPartition, int]) -> None:
        """Store the group's next-offsets."""

    @abc.abstractmethod
    async def apply(self, tx: Transaction) -> list[tuple[int, int]]:
        """Apply appends and commits together (atomic where the backend can)."""

    async def positions(self, topics: Sequence[str], groups: Sequence[str]) -> Positions:
        """Every partition's end offset of `topics` and what `groups` committed on them.

        Freshness is asked on every answer, so backends override this with one round trip."""
        ends: dict[TopicPartition, int] = {}
        committed: dict[str, dict[TopicPartition, int]] = {g: {} for g in groups}
        for topic in topics:
            for partition in range(await self.partitions(topic)):
                ends[(topic, partition)] = await self.end_offset(topic, partition)
                for group in groups:
                    committed[group][(topic, partition)] = await self.committed(
                        group, topic, partition
                    )
        return Positions(ends=ends, committed=committed)

    async def start_offsets(self, topic: str) -> dict[int, int]:
        """Per partition of `topic`, the offset of its first record still held (its end when
        empty). A reader whose position is below it has missed records that retention or
        compaction removed before it read them."""
        out: dict[int, int] = {}
        for partition in range(await self.partitions(topic)):
            first = await self.read(topic, partition, 0, 1)
            out[partition] = first[0].offset if first else await self.end_offset(topic, partition)
        return out

    async def integrity_problems(self) -> list[str]:
        """What the backend's own integrity check finds wrong (empty: sound, or a backend
        that guards its own storage, as a Kafka broker does)."""
        return []

    @abc.abstractmethod
    async def compact(self, topic: str) -> int:
        """Compact a `compact` topic now: keep the newest record per key, drop tombstones that
        every known group has consumed and that are older than the tombstone retention.
        Returns the number of records removed. No-op for `delete` topics (those expire by
        retention instead)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release resources; stop background compaction."""

    async def __aenter__(self) -> EventLog:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
