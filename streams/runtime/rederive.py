"""Re-derivation after an extractor upgrade: records an older processor made are made again.

A processor step whose processor has a `version` stamps it on its records
(`processor_version`). At start, the newest record of each partition of the step's first
output topic says which version made that partition's records: when one is older than the
running processor, the step's committed offsets on its inputs go back to 0, and the step
re-runs over every file in the log. Its records replace the old ones file by file
(replace-per-file), the views keep answering meanwhile, and a restart midway resumes from
the offsets the step has committed since (the partitions it re-derived already carry the new
version). `replay` re-derives the same way, since it starts the runtime too.
"""

from __future__ import annotations

import logging

from schemas import codec
from streams.eventlog.base import EventLog
from streams.topology import Step

log = logging.getLogger(__name__)

TAIL_RECORDS = 64  # how far back from a partition's end to look past tombstones


def processor_version(step: Step) -> int | None:
    """The version of a step's processor, None when it has none (nothing to re-derive)."""
    version = getattr(step.processor, "version", None)
    return version if step.kind == "processor" and isinstance(version, int) else None


async def newest_version(event_log: EventLog, topic: str) -> int | None:
    """The lowest `processor_version` among the newest records of `topic`'s partitions
    (tombstones skipped), None when it holds no record."""
    lowest: int | None = None
    for partition in range(await event_log.partitions(topic)):
        end = await event_log.end_offset(topic, partition)
        if not end:
            continue
        tail = await event_log.read(topic, partition, max(0, end - TAIL_RECORDS), TAIL_RECORDS)
        for record in reversed(tail):
            if record.value is None:
                continue
            value = codec.decode(topic, record.value)
            found = int(getattr(value, "processor_version", 0))
            lowest = found if lowest is None else min(lowest, found)
            break
    return lowest


async def rederive_outdated(event_log: EventLog, steps: tuple[Step, ...]) -> dict[str, int]:
    """Rewind every step whose newest records an older processor version made; returns
    {step id: the older version found}."""
    rewound: dict[str, int] = {}
    for step in steps:
        version = processor_version(step)
        if version is None or not step.outputs:
            continue
        found = await newest_version(event_log, step.outputs[0])
        if found is None or found >= version:
            continue
        offsets = {
            (topic, partition): 0
            for topic in step.inputs
            for partition in range(await event_log.partitions(topic))
        }
        await event_log.commit(step.step_id, offsets)
        log.warning(
            "step %s: records made by processor version %d, now %d: re-deriving them from "
            "the log's files",
            step.step_id,
            found,
            version,
        )
        rewound[step.step_id] = found
    return rewound
