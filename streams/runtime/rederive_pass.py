"""Re-derivation while a distributed worker keeps running: the log's files through a newer
processor, beside the step's own consumer group.

The embedded runtime rewinds its step (`rederive.py`); a Kafka worker cannot, because the
step's group has live members (other replicas of the worker) whose offsets a non-member may
not reset. So a worker runs a *pass* next to its step: it reads the step's inputs from offset
0 in offset order, runs the processor, produces the records (acks awaited) and keeps its
position in its own group, `<step>.rederive.v<version>` (a restart resumes there; an explicit
`--rederive` gets a fresh group, so it starts at 0). The step's own group keeps processing new
events meanwhile, and query replicas keep serving the old records until each file's new one
replaces it (records are keyed by file: replace-per-file, so the views end with one record
per file).

Why no file can end stale: per partition the pass emits in offset order and stops only when
its position equals the partition's end offset read *after* its last produce was acked. Every
event older than that stop the pass re-emitted last for its key; every newer one arrives after
the pass's last produce, so the step's group emits it after the pass. Dead letters are not
re-sent (the first run sent them).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass

from processors.base import ProcessContext
from schemas import topics
from streams.eventlog.base import EventLog, StoredRecord, Transaction
from streams.runtime.rederive import newest_version, processor_version
from streams.runtime.steps import process_batch
from streams.topology import Step

log = logging.getLogger(__name__)

CHUNK = 256  # input events per produce and position commit


@dataclass
class PassResult:
    """What one step's pass did: its group, the events it re-ran, how long it took."""

    group: str
    reason: str
    events: int = 0
    seconds: float = 0.0


def pass_group(step: Step, *, explicit: bool) -> str:
    """The pass's consumer group: one per processor version (a restart resumes it), or a
    fresh one for an operator's request (which always starts from 0)."""
    version = processor_version(step) or 0
    group = f"{step.step_id}.rederive.v{version}"
    return f"{group}.{int(time.time() * 1000)}" if explicit else group


async def pass_reason(event_log: EventLog, step: Step, *, explicit: bool) -> str | None:
    """Why `step` needs a pass, None when it does not: asked for, or its newest records were
    made by an older processor version than the one this worker runs."""
    if explicit:
        return "asked for (--rederive)"
    version = processor_version(step)
    if version is None or not step.outputs:
        return None
    found = await newest_version(event_log, step.outputs[0])
    if found is None or found >= version:
        return None
    return f"records made by processor version {found}, this worker runs {version}"


async def _pass_partition(
    event_log: EventLog,
    topic: str,
    partition: int,
    group: str,
    run: Callable[[list[StoredRecord]], Transaction],
    executor: Executor | None,
) -> int:
    """Re-run `step` over one input partition from the group's position until it reaches the
    end offset read after its last produce; returns the events re-run."""
    position = await event_log.committed(group, topic, partition)
    done = 0
    while position < (end := await event_log.end_offset(topic, partition)):
        while position < end:
            records = await event_log.read(topic, partition, position, CHUNK)
            if not records:  # compacted away up to the end
                position = end
                break
            tx = await asyncio.get_running_loop().run_in_executor(executor, run, records)
            tx.appends[:] = [a for a in tx.appends if a[0] != topics.DEADLETTER.name]
            position = records[-1].offset + 1
            # produced (acks awaited), then the position: a crash re-runs this chunk only
            tx.commits = {group: {(topic, partition): position}}
            await event_log.apply(tx)
            done += len(records)
    return done


async def run_pass(
    event_log: EventLog,
    step: Step,
    group: str,
    reason: str,
    *,
    ctx_factory: Callable[[], ProcessContext] | None = None,
    executor: Executor | None = None,
) -> PassResult:
    """Re-derive every record of `step` from its inputs (see the module docstring)."""
    make_ctx = ctx_factory or (lambda: ProcessContext(now=time.time()))

    def run(records: list[StoredRecord]) -> Transaction:
        return process_batch(step, records, make_ctx())[0]

    started = time.monotonic()
    result = PassResult(group, reason)
    log.warning("step %s: re-deriving from %s (%s)", step.step_id, ",".join(step.inputs), reason)
    for topic in step.inputs:
        for partition in range(await event_log.partitions(topic)):
            result.events += await _pass_partition(
                event_log, topic, partition, group, run, executor
            )
    result.seconds = round(time.monotonic() - started, 2)
    log.warning(
        "step %s: re-derived %d events in %.1f s (group %s)",
        step.step_id,
        result.events,
        result.seconds,
        group,
    )
    return result


async def rederive_steps(
    event_log: EventLog, steps: Iterable[Step], asked: Iterable[str] = ()
) -> dict[str, PassResult]:
    """A pass for each of `steps` that needs one (`asked` names the steps an operator asked
    for); {step id: what its pass did}."""
    wanted = set(asked)
    results: dict[str, PassResult] = {}
    for step in steps:
        explicit = step.step_id in wanted
        reason = await pass_reason(event_log, step, explicit=explicit)
        if reason is not None:
            group = pass_group(step, explicit=explicit)
            results[step.step_id] = await run_pass(event_log, step, group, reason)
    return results
