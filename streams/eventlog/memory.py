"""In-process EventLog (`memory://`) for tests: same semantics as the SQLite backend.

Every method runs to completion without awaiting, so each call (and `apply`) is atomic with
respect to other coroutines on the loop. Validation happens before any mutation.
"""

from __future__ import annotations

import bisect
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from schemas.topics import TopicSpec, partition_for
from streams.errors import EventLogError
from streams.eventlog.base import (
    EventLog,
    LogRecord,
    StoredRecord,
    TopicPartition,
    Transaction,
    within_budget,
)
from streams.eventlog.compaction import (
    DEFAULT_COMPACT_THRESHOLD,
    DEFAULT_TOMBSTONE_RETENTION_MS,
    Clock,
    TopicConfig,
    check_offset,
    check_partition,
    check_record,
    merge_specs,
    removable,
    topic_config,
    wall_clock_ms,
)


def _offset_of(record: StoredRecord) -> int:
    return record.offset


@dataclass
class _Partition:
    records: list[StoredRecord] = field(default_factory=list)
    next_offset: int = 0
    appended_since_compaction: int = 0
    kept_by_last_compaction: int = 0


class MemoryEventLog(EventLog):
    """Lists of records per partition; compaction rebuilds a partition's list.

    Auto-compaction runs inline once a partition has seen `compact_threshold` appends and at
    least as many as its last compaction kept, so the O(n) rebuild is amortised O(1) per append.
    """

    def __init__(
        self,
        *,
        tombstone_retention_ms: int = DEFAULT_TOMBSTONE_RETENTION_MS,
        compact_threshold: int = DEFAULT_COMPACT_THRESHOLD,
        background_compaction: bool = True,
        clock: Clock = wall_clock_ms,
    ) -> None:
        self.url = "memory://"
        self.instance_id = uuid.uuid4().hex
        self._tombstone_retention_ms = tombstone_retention_ms
        self._threshold = max(1, compact_threshold)
        self._auto = background_compaction
        self._clock = clock
        self._topics: dict[str, TopicConfig] = {}
        self._parts: dict[TopicPartition, _Partition] = {}
        self._groups: dict[str, dict[TopicPartition, int]] = {}
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError(f"{self.url} event log is closed")

    async def create_topics(self, specs: Sequence[TopicSpec]) -> None:
        self._check_open()
        for name, cfg in merge_specs(self._topics, specs).items():
            self._topics[name] = cfg
            for p in range(cfg.partitions):
                self._parts.setdefault((name, p), _Partition())

    async def partitions(self, topic: str) -> int:
        self._check_open()
        return topic_config(self._topics, topic).partitions

    async def append(self, topic: str, records: Sequence[LogRecord]) -> list[tuple[int, int]]:
        return await self.apply(Transaction(appends=[(topic, r) for r in records]))

    async def read(
        self,
        topic: str,
        partition: int,
        from_offset: int,
        max_records: int = 500,
        max_bytes: int | None = None,
    ) -> list[StoredRecord]:
        self._check_open()
        check_partition(self._topics, topic, partition)
        records = self._parts[(topic, partition)].records
        start = bisect.bisect_left(records, from_offset, key=_offset_of)
        window = records[start : start + max(0, max_records)]
        return window if max_bytes is None else within_budget(window, max_records, max_bytes)

    async def end_offset(self, topic: str, partition: int) -> int:
        self._check_open()
        check_partition(self._topics, topic, partition)
        return self._parts[(topic, partition)].next_offset

    async def committed(self, group: str, topic: str, partition: int) -> int:
        self._check_open()
        check_partition(self._topics, topic, partition)
        return self._groups.get(group, {}).get((topic, partition), 0)

    async def commit(self, group: str, offsets: Mapping[TopicPartition, int]) -> None:
        await self.apply(Transaction(commits={group: dict(offsets)}))

    async def apply(self, tx: Transaction) -> list[tuple[int, int]]:
        self._check_open()
        now = self._clock()
        planned: list[tuple[TopicPartition, LogRecord, int]] = []
        next_offsets: dict[TopicPartition, int] = {}
        for topic, record in tx.appends:
            cfg = topic_config(self._topics, topic)
            check_record(topic, record)
            tp = (topic, partition_for(record.key, cfg.partitions))
            offset = next_offsets.get(tp, self._parts[tp].next_offset)
            next_offsets[tp] = offset + 1
            planned.append((tp, record, offset))
        for group, offsets in tx.commits.items():
            for (topic, partition), offset in offsets.items():
                check_partition(self._topics, topic, partition)
                check_offset(group, offset)
        # validated: mutate (nothing below can fail)
        for (topic, p), record, offset in planned:
            ts = now if record.timestamp_ms is None else record.timestamp_ms
            part = self._parts[(topic, p)]
            part.records.append(StoredRecord(topic, p, offset, record.key, record.value, ts))
            part.next_offset = offset + 1
            part.appended_since_compaction += 1
        for group, offsets in tx.commits.items():
            self._groups.setdefault(group, {}).update(offsets)
        if self._auto:
            for tp in next_offsets:
                part = self._parts[tp]
                due = max(self._threshold, part.kept_by_last_compaction)
                if part.appended_since_compaction >= due:
                    self._compact_partition(tp)
        return [(tp[1], offset) for tp, _, offset in planned]

    def _compact_partition(self, tp: TopicPartition) -> int:
        part = self._parts[tp]
        part.appended_since_compaction = 0
        committed = [offs[tp] for offs in self._groups.values() if tp in offs]
        dead = removable(
            ((r.offset, r.key, r.value is None, r.timestamp_ms) for r in part.records),
            self._topics[tp[0]],
            min_committed=min(committed) if committed else None,
            now_ms=self._clock(),
            tombstone_retention_ms=self._tombstone_retention_ms,
        )
        if dead:
            part.records = [r for r in part.records if r.offset not in dead]
        part.kept_by_last_compaction = len(part.records)
        return len(dead)

    async def compact(self, topic: str) -> int:
        self._check_open()
        cfg = topic_config(self._topics, topic)
        return sum(self._compact_partition((topic, p)) for p in range(cfg.partitions))

    async def close(self) -> None:
        self._closed = True
