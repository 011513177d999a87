"""One batch of one step: the unit of work both runtimes share.

A processor step turns input records into output appends plus an offset commit, returned as
one Transaction. Inputs that cannot be decoded or processed become dead letters in that same
transaction, so a poison event never stalls the step and is never lost.
"""

from __future__ import annotations

import base64
import logging
import time
import traceback
from collections.abc import Sequence

from pydantic import BaseModel

from processors.base import ProcessContext
from schemas import codec, topics
from schemas.events import DeadLetter
from streams.eventlog.base import LogRecord, StoredRecord, Transaction, refuse_undecodable_key
from streams.topology import Step

log = logging.getLogger(__name__)


def dead_letter(step_id: str, record: StoredRecord, exc: BaseException) -> LogRecord:
    """The dead-letter record for `record`, keeping its raw value and the error."""
    letter = DeadLetter(
        step=step_id,
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        key=record.key,
        value_b64=base64.b64encode(record.value).decode("ascii") if record.value else None,
        error_type=type(exc).__name__,
        error=f"{exc}"[:4000] or "".join(traceback.format_exception_only(exc))[:4000],
        failed_at=time.time(),
    )
    log.warning(
        "dead-lettered %s[%d]@%d key=%r in step %s: %s: %s",
        record.topic,
        record.partition,
        record.offset,
        record.key,
        step_id,
        letter.error_type,
        letter.error[:200],
    )
    return LogRecord(key=record.key, value=codec.encode(letter))


def process_batch(
    step: Step, records: Sequence[StoredRecord], ctx: ProcessContext
) -> tuple[Transaction, int]:
    """Run `step.processor` over records of one topic-partition; returns (tx, dead letters)."""
    assert step.processor is not None
    tx = Transaction()
    dead = 0
    for record in records:
        try:
            refuse_undecodable_key(record.key)
            event = codec.decode(record.topic, record.value)
            for emit in step.processor.process(record.topic, record.key, event, ctx):
                value = None if emit.value is None else codec.encode(emit.value)
                tx.append(emit.topic, LogRecord(key=emit.key, value=value))
        except Exception as exc:  # a poison event must never stall the step
            tx.append(topics.DEADLETTER.name, dead_letter(step.step_id, record, exc))
            dead += 1
    if records:
        last = records[-1]
        tx.commit(step.step_id, last.topic, last.partition, last.offset + 1)
    return tx, dead


def decode_for_sink(
    step_id: str, records: Sequence[StoredRecord]
) -> tuple[list[tuple[str, str, BaseModel | None]], list[LogRecord]]:
    """Decode records for a sink; undecodable ones come back as dead letters instead."""
    decoded: list[tuple[str, str, BaseModel | None]] = []
    letters: list[LogRecord] = []
    for record in records:
        try:
            if record.key is None:
                raise ValueError("record has no key; every view record is keyed")
            refuse_undecodable_key(record.key)
            decoded.append((record.topic, record.key, codec.decode(record.topic, record.value)))
        except Exception as exc:
            letters.append(dead_letter(step_id, record, exc))
    return decoded, letters
