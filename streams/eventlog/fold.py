"""Folding a compacted topic into what it currently holds, read from the log itself.

A writer that must know what it wrote earlier (which files of a repository are live, to
tombstone them) asks the log, never a projection of it: the views may trail the log, so
files published but not yet applied would be missed and outlive their repository.
"""

from __future__ import annotations

from schemas.topics import partition_for
from streams.eventlog.base import EventLog

FOLD_BATCH = 500


async def live_keys(event_log: EventLog, topic: str, repo_id: str) -> list[str]:
    """Keys of `repo_id` whose newest record in `topic` is not a tombstone, in key order.
    Reads the repository's partition only (keys partition by repository first)."""
    prefix = f"{repo_id}/"
    partition = partition_for(prefix, await event_log.partitions(topic))
    live: dict[str, bool] = {}
    offset = 0
    while batch := await event_log.read(topic, partition, offset, FOLD_BATCH):
        for record in batch:
            if record.key is not None and record.key.startswith(prefix):
                live[record.key] = record.value is not None
        offset = batch[-1].offset + 1
    return sorted(key for key, alive in live.items() if alive)
