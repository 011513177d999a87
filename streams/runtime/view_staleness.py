"""Whether a replica's views outlived what the log still holds, so reading on would keep
rows the log has since deleted: then the views must be rebuilt from scratch.

Three ways, all checked when a replica starts:
- its position on a record topic is past the partition's end: the topic was recreated (a
  cluster rebuilt under views kept on a volume) or lost records, so its offsets now name other
  records and reading on would skip everything up to the old position;
- its position on a compacted record topic is below the partition's log start: records
  between were removed (retention, `kafka-delete-records`, a recreated topic) unread;
- it was out of step with the log for longer than the broker keeps tombstones
  (`delete.retention.ms`): a file deleted meanwhile may have lost its tombstone to compaction,
  so the views would keep showing it forever.

The second needs to know when the views were last in step: `record_synced` keeps, in the views
database under a group of its own, the newest time T such that every record written before T
was applied (a lag measurement at time m that finds the oldest unapplied record s seconds old
gives T = m - s). Views from before this mark existed are not judged by it.

A sharded replica (streams/runtime/shards.py) is judged on its own partitions only, and views
made under another shard assignment (or none) are rebuilt: they would keep repositories the
replica no longer holds and lack those it now does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from schemas.topics import BY_NAME
from streams.eventlog.base import EventLog
from streams.runtime.shards import ShardAssignment

SYNC_GROUP = "views.synced"  # not a topic position: one row holding the sync time in ms
SYNC_KEY = ("@synced_at", 0)
SHARD_GROUP = "views.shard"  # one row: shard K of S as S * 1000 + K
SHARD_KEY = ("@shard", 0)
WHOLE = ShardAssignment(0, 1)


class OffsetStore(Protocol):
    """The parts of the ViewStore this uses (its offsets table)."""

    def offsets(self, group: str = ...) -> dict[tuple[str, int], int]: ...

    def apply(
        self, records: Sequence[Any], offsets: dict[tuple[str, int], int], group: str = ...
    ) -> None: ...


def record_synced(views: OffsetStore, at_s: float) -> None:
    """The views hold every record written before `at_s` (kept only when it moves forward)."""
    at_ms = int(at_s * 1000)
    if at_ms > views.offsets(SYNC_GROUP).get(SYNC_KEY, 0):
        views.apply([], {SYNC_KEY: at_ms}, SYNC_GROUP)


def record_shard(views: OffsetStore, shard: ShardAssignment) -> None:
    """The shard assignment these views are filled under."""
    if recorded_shard(views) != shard:
        views.apply([], {SHARD_KEY: shard.count * 1000 + shard.index}, SHARD_GROUP)


def recorded_shard(views: OffsetStore) -> ShardAssignment | None:
    """The assignment the views were filled under; None when unrecorded (views from before
    shards existed, which hold everything)."""
    value = views.offsets(SHARD_GROUP).get(SHARD_KEY)
    return None if value is None else ShardAssignment(value % 1000, value // 1000)


def synced_at(views: OffsetStore) -> float | None:
    ms = views.offsets(SYNC_GROUP).get(SYNC_KEY)
    return None if ms is None else ms / 1000.0


async def views_outlived_log(
    log: EventLog,
    views: OffsetStore,
    group: str,
    topics: Sequence[str],
    tombstone_retention_s: float,
    now: float,
    shard: ShardAssignment = WHOLE,
) -> str | None:
    """Why the views must be rebuilt from scratch (None: they may resume)."""
    applied = views.offsets(group)
    if not any(applied.values()):
        return None  # empty views read from the log's start anyway
    filled_under = recorded_shard(views) or WHOLE
    if filled_under != shard:
        return (
            f"the views hold shard {filled_under.label} of the repositories and this replica "
            f"is shard {shard.label}"
        )
    ends = (await log.positions(topics, [])).ends
    counts = {t: sum(1 for tt, _ in ends if tt == t) for t in topics}
    held = {tp: end for tp, end in ends.items() if shard.holds_partition(counts[tp[0]], tp[1])}
    ahead = _past_the_end(applied, held)
    if ahead is not None:
        return ahead
    behind = any(applied.get(tp, 0) < end for tp, end in held.items())
    for topic in topics:
        if BY_NAME[topic].cleanup != "compact":
            continue  # expiring topics (command verdicts) hold nothing the views keep
        for partition, start in (await log.start_offsets(topic)).items():
            at = applied.get((topic, partition), 0)
            if 0 < at < start:
                return (
                    f"{topic}[{partition}]: the views stopped at offset {at} but the log now "
                    f"starts at {start}; the records between were removed unread"
                )
    last = synced_at(views)
    if behind and last is not None and now - last > tombstone_retention_s:
        return (
            f"the views were last in step with the log {(now - last) / 3600:.1f} h ago, longer "
            f"than the log keeps tombstones ({tombstone_retention_s / 3600:.1f} h): files "
            "deleted meanwhile may have no tombstone left to remove them"
        )
    return None


def _past_the_end(
    applied: dict[tuple[str, int], int], ends: dict[tuple[str, int], int]
) -> str | None:
    """A partition the views read further than the log now reaches, if any. Read before the
    sink runs, so no batch can land between the two reads."""
    for (topic, partition), end in sorted(ends.items()):
        at = applied.get((topic, partition), 0)
        if at > end:
            return (
                f"{topic}[{partition}]: the views read up to offset {at} but the log ends at "
                f"{end}; the topic was recreated or lost records"
            )
    return None
