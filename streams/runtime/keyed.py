"""Keyed-state processor steps (the memory processor): the runtime keeps the current value of
every key of the processor's `state_topic` and hands it in, so the processor stays pure.

The state is rebuilt from the state topic itself (compacted, the processor is its only
writer), so after a crash it equals what the committed outputs say, and the step's offset
commit travels in the same log transaction as those outputs. Runs in this process (never a
worker pool): the state lives here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from processors.base import KeyedProcessor
from schemas import codec, topics
from schemas.errors import DecodeError
from streams.eventlog.base import (
    EventLog,
    LogRecord,
    StoredRecord,
    Transaction,
    refuse_undecodable_key,
)
from streams.runtime.steps import dead_letter
from streams.topology import Step

log = logging.getLogger(__name__)


def keyed_processor(step: Step) -> KeyedProcessor:
    if step.kind != "keyed" or step.keyed is None:
        raise ValueError(f"step {step.step_id} is a {step.kind} step, not a keyed one")
    return step.keyed


class _Overlay(Mapping[str, BaseModel | None]):
    """The committed state with this batch's not-yet-committed writes on top."""

    def __init__(self, base: dict[str, BaseModel | None]) -> None:
        self.base = base
        self.writes: dict[str, BaseModel | None] = {}

    def __getitem__(self, key: str) -> BaseModel | None:
        if key in self.writes:
            return self.writes[key]
        return self.base[key]

    def __iter__(self) -> Any:
        yield from {**self.base, **self.writes}

    def __len__(self) -> int:
        return len({**self.base, **self.writes})


class KeyedStateRunner:
    """Runs keyed processor steps for one runtime, with their state cached by key."""

    def __init__(self, event_log: EventLog, batch_size: int = 512) -> None:
        self.log = event_log
        self.batch_size = batch_size
        self._state: dict[str, dict[str, BaseModel | None]] = {}
        self._pending: dict[str, BaseModel | None] = {}

    async def _load(self, topic: str) -> dict[str, BaseModel | None]:
        if topic in self._state:
            return self._state[topic]
        state: dict[str, BaseModel | None] = {}
        for partition in range(await self.log.partitions(topic)):
            offset = 0
            while batch := await self.log.read(topic, partition, offset, self.batch_size):
                for record in batch:
                    if record.key is None:
                        continue
                    try:
                        state[record.key] = codec.decode(topic, record.value)
                    except DecodeError:  # one bad record must not stall every memory write
                        log.warning("undecodable %s record %r skipped", topic, record.key)
                        state.pop(record.key, None)
                offset = batch[-1].offset + 1
        for key in [k for k, v in state.items() if v is None]:
            del state[key]
        self._state[topic] = state
        return state

    async def migrate(self, step: Step) -> int:
        """Append the processor's migrations (commands that bring state an older version
        wrote up to date) to the step's input; returns how many. Run once at start: the
        commands are then applied in order with every other, by the processor itself."""
        processor = keyed_processor(step)
        emits = processor.migrations(await self._load(processor.state_topic))
        if not emits:
            return 0
        tx = Transaction()
        for emit in emits:
            value = None if emit.value is None else codec.encode(emit.value)
            tx.append(emit.topic, LogRecord(key=emit.key, value=value))
        await self.log.apply(tx)
        log.info(
            "step %s: %d records of an older version queued to re-derive", step.step_id, len(emits)
        )
        return len(emits)

    def invalidate(self) -> None:
        """Forget the cache (after a failed commit the log is the truth again)."""
        self._state.clear()

    async def process(self, step: Step, batch: Sequence[StoredRecord]) -> tuple[Transaction, int]:
        processor = keyed_processor(step)
        base = await self._load(processor.state_topic)
        overlay = _Overlay(base)
        tx = Transaction()
        dead = 0
        for record in batch:
            try:
                refuse_undecodable_key(record.key)
                event = codec.decode(record.topic, record.value)
                emits = processor.process_keyed(overlay, record.key, event, record.offset + 1)
                staged: list[tuple[str, LogRecord]] = []
                writes: dict[str, BaseModel | None] = {}
                for emit in emits:
                    value = None if emit.value is None else codec.encode(emit.value)
                    staged.append((emit.topic, LogRecord(key=emit.key, value=value)))
                    if emit.topic == processor.state_topic and emit.key is not None:
                        writes[emit.key] = emit.value
            except Exception as exc:  # a poison command never stalls the step
                tx.append(topics.DEADLETTER.name, dead_letter(step.step_id, record, exc))
                dead += 1
                continue
            for topic, log_record in staged:
                tx.append(topic, log_record)
            overlay.writes.update(writes)
        if batch:
            last = batch[-1]
            tx.commit(step.step_id, last.topic, last.partition, last.offset + 1)
        self._pending = overlay.writes
        return tx, dead

    def committed(self, step: Step) -> None:
        """The transaction of the last `process` is durable: fold its writes into the state."""
        base = self._state.get(keyed_processor(step).state_topic)
        if base is None:
            return
        for key, value in self._pending.items():
            if value is None:
                base.pop(key, None)
            else:
                base[key] = value
        self._pending = {}
