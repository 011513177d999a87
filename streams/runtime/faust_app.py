"""The Kafka runtime: each processor step of the topology as a faust-streaming agent.

One faust app per step, so one consumer group per step (the app id is the step id under the
log's prefix): running the same step in N processes spreads its input partitions over them,
and a dead member's partitions move to the others. The agent is a thin adapter: it takes a
batch of raw events, runs the same `steps.process_batch` (or the keyed-state runner, for the
memory step) as the embedded runtime, and then, in this order:

1. (processor steps have no sink writes of their own: their outputs are the log;)
2. produce the outputs and dead letters through the `KafkaEventLog` (the same partitioner and
   key encoding as every other writer) and await every ack (acks=all);
3. ack the events to faust, whose consumer commits acked offsets (every
   `commit_interval_s`, on rebalance and on stop). An unacked event is never committed.

A crash between 2 and 3 re-delivers the batch: at-least-once, harmless because processors are
deterministic and every record is an idempotent replace-per-key upsert. A failing batch is
retried (its events stay unacked) until it succeeds or the worker stops.

Faust is told not to own anything: `topic_allow_declare=False` (topics come from
`repocontext topics`, never from faust), `topic_disable_leader=True` (no assignor leader
topic), no tables (so no changelog topics), no web server, raw bytes in and out (our codec
decodes). Shutdown: the agent finishes its batch, then the app stops (commits, leaves the
group), bounded by `shutdown_timeout_s`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import warnings
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import faust

from processors.base import ProcessContext
from streams.eventlog.base import BATCH_BYTES, StoredRecord, Transaction
from streams.eventlog.kafka import MAX_RECORD_BYTES, KafkaEventLog, decode_key
from streams.runtime.keyed import KeyedStateRunner
from streams.runtime.log_contact import CONTACT_ERRORS, LogContact
from streams.runtime.steps import process_batch
from streams.runtime.worker_monitor import MonitoredStep
from streams.topology import Step, worker_steps

log = logging.getLogger(__name__)

RETRY_PAUSE_S = 1.0  # between attempts at a batch while the broker refuses


@dataclass
class WorkerCounters:
    batches: int = 0
    processed: int = 0
    dead_letters: int = 0
    retries: int = 0
    largest_batch_bytes: int = 0  # record values of the largest batch handled at once


def process_groups(
    step: Step, groups: list[list[StoredRecord]], ctx: ProcessContext
) -> tuple[Transaction, int]:
    """`process_batch` over each topic-partition's records, merged into one transaction."""
    merged, dead = Transaction(), 0
    for records in groups:
        tx, n = process_batch(step, records, ctx)
        merged.appends.extend(tx.appends)
        dead += n
    return merged, dead


def make_app(
    event_log: KafkaEventLog,
    group: str,
    datadir: Path,
    *,
    commit_interval_s: float = 1.0,
    session_timeout_s: float = 10.0,
) -> faust.App:
    """A faust app that owns nothing (see the module docstring), in consumer group `group`."""
    return faust.App(
        event_log.physical_group(group),
        broker=[f"kafka://{b}" for b in event_log.bootstrap.split(",")],
        datadir=str(datadir / group),
        autodiscover=False,
        web_enabled=False,
        topic_allow_declare=False,
        topic_disable_leader=True,
        consumer_auto_offset_reset="earliest",
        # a large file's record (up to the producer's MAX_RECORD_BYTES) in one fetch
        consumer_max_fetch_size=MAX_RECORD_BYTES,
        producer_acks=-1,
        broker_commit_interval=commit_interval_s,
        broker_commit_every=100_000,
        broker_client_id=f"repocontext-{group}",
        # the same Kafka user as the EventLog's clients: the broker's ACLs are per user
        broker_credentials=(
            event_log.security.faust_credentials() if event_log.security is not None else None
        ),
        # a SIGKILLed member's partitions move after this (faust's default is 60 s)
        broker_session_timeout=session_timeout_s,
        broker_heartbeat_interval=session_timeout_s / 3,
        processing_guarantee="at_least_once",
        # faust reads BROKER_URL etc. from the environment, over these very arguments;
        # our settings come only from query_api/settings.py
        env={},
    )


def attach_raw_agent(
    app: faust.App, event_log: KafkaEventLog, inputs: Sequence[str], name: str, agent: Any
) -> None:
    """`agent` over the physical `inputs`, raw bytes in (our codec decodes)."""
    topic = app.topic(
        *(event_log.physical_topic(t) for t in inputs),
        key_type=bytes,
        value_type=bytes,
        key_serializer="raw",
        value_serializer="raw",
    )
    app.agent(topic, name=name)(agent)


def stored_record(event_log: KafkaEventLog, event: Any) -> StoredRecord:
    """A faust event as the StoredRecord both runtimes' steps take."""
    m = event.message
    return StoredRecord(
        str(m.topic).removeprefix(event_log.prefix),
        m.partition,
        m.offset,
        decode_key(m.key),
        m.value,
        int(m.timestamp * 1000),
    )


def event_bytes(event: Any) -> int:
    """The size of a faust event's record value (a tombstone counts 0)."""
    return len(event.message.value or b"")


def cut_by_bytes(events: Sequence[Any], max_bytes: int) -> list[list[Any]]:
    """`events` in order, cut into runs whose values fit in `max_bytes` together; a run holds
    at least one event, so a record larger than the budget is handled alone."""
    runs: list[list[Any]] = []
    used = 0
    for event in events:
        size = event_bytes(event)
        if not runs or used + size > max_bytes:
            runs.append([])
            used = 0
        runs[-1].append(event)
        used += size
    return runs


async def ack_batches(
    stream: Any,
    batch_size: int,
    within_s: float,
    busy: asyncio.Lock,
    handle_until_done: Callable[[list[Any]], Awaitable[bool]],
    batch_bytes: int = BATCH_BYTES,
) -> None:
    """The agent loop of both step kinds: take up to `batch_size` events unacked and, while
    holding `busy` (what `stop_after_batch` waits for), handle them in runs of at most
    `batch_bytes` of record values, acking each run once handled. faust's consumer holds the
    fetched events anyway; the runs bound what one processor call expands and one produce
    carries (files of up to 4 Mi characters: 256 of them made gigabytes of JSON at once), as
    the embedded runtime's reads do. A run left unfinished because the step is stopping stays
    unacked with the rest of the take, so the next owner of its partitions gets it again."""
    async for events in stream.noack_take(batch_size, within=within_s):
        async with busy:
            for run in cut_by_bytes(events, batch_bytes):
                if not await handle_until_done(run):
                    return
                for event in run:
                    await stream.ack(event)


async def stop_after_batch(
    app: faust.App, busy: asyncio.Lock, timeout_s: float, label: str
) -> None:
    """Wait (bounded) for the batch in hand, then stop the app: it commits acked offsets and
    leaves the group.

    faust's own stop waits, unbounded, until every event it handed out is acked
    (`stream_wait_empty`); a run left unacked on purpose (stopping mid-retry: the broker
    away, a produce refused) is never acked, so that wait never ended and the worker ignored
    SIGTERM for good. Once the batch is done or given up nothing of ours is in flight, so the
    wait is turned off here: faust commits what was acked and the rest is redelivered."""
    deadline = time.monotonic() + timeout_s
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout_s):
            await busy.acquire()
    with warnings.catch_warnings():  # faust warns that the setting was read before
        warnings.simplefilter("ignore")
        app.conf.stream_wait_empty = False
    remaining = max(0.5, deadline - time.monotonic())
    try:
        await asyncio.wait_for(app.stop(), remaining)
    except TimeoutError:
        log.warning("%s: faust app did not stop in time", label)


class FaustStep:
    """One topology step as a faust app whose single agent adapts `process_batch`."""

    def __init__(
        self,
        event_log: KafkaEventLog,
        step: Step,
        datadir: Path,
        *,
        batch_size: int = 256,
        batch_bytes: int = BATCH_BYTES,
        ctx_factory: Callable[[], ProcessContext] | None = None,
        executor: Executor | None = None,
        shutdown_timeout_s: float = 10.0,
        commit_interval_s: float = 1.0,
        session_timeout_s: float = 10.0,
    ) -> None:
        if step.kind not in ("processor", "keyed"):
            raise ValueError(f"step {step.step_id} is a {step.kind}; workers run processors")
        self.log = event_log
        self.step = step
        self.batch_size = batch_size
        self.batch_bytes = batch_bytes
        self._ctx_factory = ctx_factory or (lambda: ProcessContext(now=time.time()))
        self.executor = executor
        self.shutdown_timeout_s = shutdown_timeout_s
        self.counters = WorkerCounters()
        self.assigned = asyncio.Event()  # set once the group gave this member partitions
        self._stopping = False
        self._busy = asyncio.Lock()  # held while a batch is between take and ack
        self._keyed = KeyedStateRunner(event_log) if step.kind == "keyed" else None
        self.contact = LogContact(f"step {step.step_id}")
        self._failing = False  # a batch failed for another reason than the broker being away
        self.app = make_app(
            event_log,
            step.step_id,
            datadir,
            commit_interval_s=commit_interval_s,
            session_timeout_s=session_timeout_s,
        )
        attach_raw_agent(self.app, event_log, step.inputs, step.step_id, self._agent)
        self.app.on_partitions_assigned.connect(self._on_assigned)

    @property
    def step_id(self) -> str:
        return self.step.step_id

    @property
    def group(self) -> str:
        return self.step.step_id

    @property
    def inputs(self) -> tuple[str, ...]:
        return self.step.inputs

    @property
    def events_handled(self) -> int:
        return self.counters.processed

    @property
    def dead_letters(self) -> int:
        return self.counters.dead_letters

    async def _on_assigned(
        self, sender: Any, /, *args: Any, signal: Any = None, **kwargs: Any
    ) -> None:
        assigned = args[0] if args else kwargs.get("assigned")
        if self._keyed is not None:
            self._keyed.invalidate()  # keys of newly owned partitions were written elsewhere
        if assigned:
            self.assigned.set()

    async def _agent(self, stream: Any) -> None:
        await ack_batches(
            stream, self.batch_size, 0.05, self._busy, self._handle_until_done, self.batch_bytes
        )

    async def _handle_until_done(self, events: list[Any]) -> bool:
        """Process and produce one batch, retrying while the broker refuses (poison events
        are dead letters already, so what fails here is infrastructure); False = stopping."""
        while not self._stopping:
            try:
                await self._handle(events)
                self.contact.succeeded()
                if self._failing:
                    log.warning("step %s: batches succeed again", self.step.step_id)
                    self._failing = False
                return True
            except Exception as exc:
                if self._keyed is not None:
                    self._keyed.invalidate()  # the log is the truth again
                self.counters.retries += 1
                if isinstance(exc, CONTACT_ERRORS):  # the broker is away: one line per outage
                    self.contact.failed(exc)
                elif not self._failing:  # repeats stay quiet until a batch succeeds again
                    log.exception("step %s: batch failed; retrying", self.step.step_id)
                    self._failing = True
                await asyncio.sleep(RETRY_PAUSE_S)
        return False

    async def _handle(self, events: list[Any]) -> None:
        by_tp: dict[tuple[str, int], list[StoredRecord]] = {}
        for event in events:
            record = stored_record(self.log, event)
            by_tp.setdefault((record.topic, record.partition), []).append(record)
        if self._keyed is not None:  # state lives in this process: never the worker pool
            for records in by_tp.values():  # one at a time: each folds into the next's state
                tx, dead = await self._keyed.process(self.step, records)
                await self._produce(tx, dead, len(records))
                self._keyed.committed(self.step)
        else:  # every partition's share in one executor call and one produce
            tx, dead = await asyncio.get_running_loop().run_in_executor(
                self.executor, process_groups, self.step, list(by_tp.values()), self._ctx_factory()
            )
            await self._produce(tx, dead, len(events))
        self.counters.batches += 1
        size = sum(map(event_bytes, events))
        self.counters.largest_batch_bytes = max(self.counters.largest_batch_bytes, size)

    async def _produce(self, tx: Transaction, dead: int, processed: int) -> None:
        tx.commits.clear()  # input offsets are faust's: acked after this produce
        await self.log.apply(tx)  # every ack awaited (acks=all)
        self.counters.dead_letters += dead
        self.counters.processed += processed

    async def start(self) -> None:
        for topic in self.step.inputs + self.step.outputs:
            await self.log.partitions(topic)  # provisioned beforehand: missing is an error
        if self._keyed is not None:  # commands on the input: whoever owns a key applies them
            await self._keyed.migrate(self.step)
            self._keyed.invalidate()  # reloaded once partitions are assigned
        self.app.conf.datadir.mkdir(parents=True, exist_ok=True)
        await self.app.start()

    async def stop(self) -> None:
        """Finish the batch in hand, then stop the app (commit acked offsets, leave the group)."""
        self._stopping = True
        await stop_after_batch(
            self.app, self._busy, self.shutdown_timeout_s, f"step {self.step.step_id}"
        )


def processor_steps(step_ids: list[str] | None) -> list[Step]:
    """The topology's processor steps (and the memory writer) named by `step_ids` (None or
    empty = all of them)."""
    steps = {s.step_id: s for s in worker_steps()}
    unknown = sorted(set(step_ids or ()) - set(steps))
    if unknown:
        raise ValueError(f"unknown step(s) {', '.join(unknown)}; steps: {', '.join(steps)}")
    return [steps[i] for i in dict.fromkeys(step_ids)] if step_ids else list(steps.values())


class StepApp(MonitoredStep, Protocol):
    """What `run_apps` drives: a step the worker monitor reads, and the faust app that runs it."""

    app: faust.App

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


async def run_apps(apps: Sequence[StepApp], stop: asyncio.Event) -> None:
    """Run the step apps until `stop`; a crashed app stops the others."""
    try:
        for app in apps:
            await app.start()
        while not stop.is_set():
            crashed = [a for a in apps if a.app.crashed]
            if crashed:
                raise RuntimeError(
                    f"step {crashed[0].step_id} crashed: {crashed[0].app.crash_reason!r}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)
    finally:
        await asyncio.gather(*(a.stop() for a in apps), return_exceptions=True)
