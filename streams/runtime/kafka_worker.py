"""The Kafka runtime: processor steps of the topology as members of Kafka consumer groups.

One `KafkaStepWorker` per step; its consumer group is the step id (under the log's prefix),
so running the same step in N processes spreads the input partitions over them and a dead
member's partitions move to the others. Each batch goes through the same
`steps.process_batch` as the embedded runtime, then, in this order:

1. produce the outputs (and dead letters) and wait for every ack (acks=all);
2. commit the input offsets through the group (only then).

A crash between 1 and 2 re-delivers the batch: at-least-once, harmless because processors are
deterministic and every record is an idempotent replace-per-key upsert. A rebalance that
revokes a partition mid-batch makes the commit fail; the new owner re-processes that batch.

Shutdown: `stop` is checked between batches; the consumer then leaves its group (its
partitions move at once), bounded by `shutdown_timeout_s`.

(DESIGN §5 names faust-streaming for this runtime; faust-streaming 0.15.3 pins click<8.4,
which conflicts with the embedder's huggingface-hub (click>=8.4.2), so the group consumer is
aiokafka's own, which faust itself is built on.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from aiokafka import AIOKafkaConsumer
from aiokafka.errors import CommitFailedError, KafkaError

from processors.base import ProcessContext
from streams.eventlog.base import StoredRecord
from streams.eventlog.kafka import KafkaEventLog, decode_key
from streams.runtime.steps import process_batch
from streams.topology import Step

log = logging.getLogger(__name__)


@dataclass
class WorkerCounters:
    batches: int = 0
    processed: int = 0
    dead_letters: int = 0
    commit_conflicts: int = 0


class KafkaStepWorker:
    def __init__(
        self,
        event_log: KafkaEventLog,
        step: Step,
        *,
        batch_size: int = 256,
        ctx_factory: Callable[[], ProcessContext] | None = None,
        executor: Executor | None = None,
        shutdown_timeout_s: float = 10.0,
    ) -> None:
        if step.kind != "processor":
            raise ValueError(f"step {step.step_id} is a {step.kind}; workers run processors")
        self.log = event_log
        self.step = step
        self.batch_size = batch_size
        self._ctx_factory = ctx_factory or (lambda: ProcessContext(now=time.time()))
        self.executor = executor
        self.shutdown_timeout_s = shutdown_timeout_s
        self.counters = WorkerCounters()
        self.assigned = asyncio.Event()  # set once the group gave this member its partitions

    async def run(self, stop: asyncio.Event) -> None:
        # the topics must exist (provisioned beforehand): a missing one is an error, not a wait
        for topic in self.step.inputs + self.step.outputs:
            await self.log.partitions(topic)
        consumer = AIOKafkaConsumer(
            *(self.log.physical_topic(t) for t in self.step.inputs),
            bootstrap_servers=self.log.bootstrap,
            group_id=self.log.physical_group(self.step.step_id),
            client_id=f"repocontext-{self.step.step_id}",
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            max_poll_records=self.batch_size,
            max_partition_fetch_bytes=8 * 2**20,
            fetch_max_wait_ms=100,
        )
        await consumer.start()
        try:
            while not stop.is_set():
                if consumer.assignment():
                    self.assigned.set()
                batches = await consumer.getmany(timeout_ms=200, max_records=self.batch_size)
                for tp, messages in batches.items():
                    if messages:
                        await self._handle(consumer, tp, messages)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(consumer.stop(), self.shutdown_timeout_s)

    async def _handle(self, consumer: AIOKafkaConsumer, tp: Any, messages: list[Any]) -> None:
        topic = str(tp.topic).removeprefix(self.log.prefix)
        records = [
            StoredRecord(topic, m.partition, m.offset, decode_key(m.key), m.value, m.timestamp)
            for m in messages
        ]
        tx, dead = await asyncio.get_running_loop().run_in_executor(
            self.executor, process_batch, self.step, records, self._ctx_factory()
        )
        tx.commits.clear()  # the input offsets go through the group, below
        await self.log.apply(tx)  # 1. produce, every ack awaited
        try:
            await consumer.commit({tp: records[-1].offset + 1})  # 2. then commit
        except (CommitFailedError, KafkaError) as exc:
            self.counters.commit_conflicts += 1
            log.warning(
                "step %s: commit of %s refused (%s); redelivered", self.step.step_id, tp, exc
            )
        self.counters.batches += 1
        self.counters.processed += len(records)
        self.counters.dead_letters += dead


def processor_steps(step_ids: list[str] | None) -> list[Step]:
    """The topology's processor steps named by `step_ids` (None or empty = all of them)."""
    from streams.topology import pipeline_steps

    steps = {s.step_id: s for s in pipeline_steps() if s.kind == "processor"}
    unknown = sorted(set(step_ids or ()) - set(steps))
    if unknown:
        raise ValueError(f"unknown step(s) {', '.join(unknown)}; steps: {', '.join(steps)}")
    return [steps[i] for i in step_ids] if step_ids else list(steps.values())


async def run_workers(
    event_log: KafkaEventLog, steps: list[Step], stop: asyncio.Event, *, batch_size: int = 256
) -> list[KafkaStepWorker]:
    """Run one group member per step until `stop`; a failing step stops the others."""
    workers = [KafkaStepWorker(event_log, s, batch_size=batch_size) for s in steps]
    tasks = [asyncio.create_task(w.run(stop), name=f"step-{w.step.step_id}") for w in workers]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return workers
