"""The embedded runtime: every step of the topology in one asyncio loop over one log.

Processor steps commit appends and their offset in ONE log transaction; the view sink
commits view writes and its offsets in ONE views transaction. Either way a kill -9 at any
point resumes to exactly the state an uninterrupted run reaches.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from processors.base import ProcessContext
from schemas import topics
from streams.errors import (
    EventLogError,
    LogUnreachable,
    StorageFull,
    storage_exhausted,
    store_busy,
)
from streams.eventlog.base import BATCH_BYTES, EventLog, StoredRecord
from streams.runtime.keyed import KeyedStateRunner
from streams.runtime.log_contact import CONTACT_ERRORS, LagWatch, LogContact
from streams.runtime.log_health import LogHealth
from streams.runtime.pool import spawn_hint
from streams.runtime.rederive import rederive_outdated
from streams.runtime.shards import ShardAssignment
from streams.runtime.steps import decode_for_sink, process_batch
from streams.runtime.view_staleness import record_synced
from streams.runtime.views_rebuild import REBUILD_LOG_S, report_views_rebuild
from streams.stores.views.store import ViewStore
from streams.topology import Step, embedded_topology

log = logging.getLogger(__name__)
SYNC_NOTE_EVERY_S = 10.0  # how often the views' in-step time is written (a sub-day bound)
FIRST_READ = 16  # records a step reads in its first batch (then doubling up to batch_size)
IDLE_POLL_FIRST_S, IDLE_POLL_MAX_S = 0.01, 0.2  # wait_idle's first and longest pause


@dataclass
class Lag:
    """How far the views trail the log, summed over every step input. On a remote log it is
    the last background measurement: `measured_at` (None: none yet) says when, and while the
    log is unreachable `unreachable_since` says since when and `error` why."""

    applied: int
    end: int
    behind: int
    seconds_behind: float | None
    measured_at: float | None = None
    unreachable_since: float | None = None
    error: str | None = None
    # events behind per (step id, topic, partition), for per-partition lag metrics
    by_partition: dict[tuple[str, str, int], int] = dataclasses.field(default_factory=dict)


@dataclass
class RuntimeCounters:
    processed: int = 0
    dead_letters: int = 0
    applied_to_views: int = 0


class EmbeddedRuntime:
    def __init__(
        self,
        event_log: EventLog,
        views: ViewStore,
        steps: tuple[Step, ...] | None = None,
        *,
        batch_size: int = 256,
        batch_bytes: int = BATCH_BYTES,
        poll_seconds: float = 0.5,
        ctx_factory: Callable[[], ProcessContext] | None = None,
        executor: Executor | None = None,
        fault_after_failures: int = 3,
        sink_group: str | None = None,
        shard: ShardAssignment | None = None,
    ) -> None:
        self.log = event_log
        # The consumer group the view sink mirrors its position into (the step id when None).
        # Each query replica passes its own, so every replica's lag is its own in the broker.
        self.sink_group = sink_group
        # The repositories the view sink keeps (a query replica's shard; everything by default)
        self.shard = shard if shard is not None else ShardAssignment(0, 1)
        self.views = views
        self.steps = steps if steps is not None else embedded_topology()
        if driven_apart := [s.step_id for s in self.steps if s.kind == "vectors"]:
            raise ValueError(f"steps {driven_apart} are vector steps: the vector plane runs them")
        self.batch_size = batch_size
        if batch_bytes < 1:
            raise ValueError(f"batch_bytes must be at least 1, got {batch_bytes}")
        self.batch_bytes = batch_bytes  # a batch also stops at this many bytes of record values
        # Each step's read size (per partition) starts small and doubles per pass up to
        # batch_size: on a fresh start the first files reach the views (and the first keyword
        # answers) after one small batch instead of after every stage chewed a full one.
        self._read_limits = {s.step_id: min(batch_size, FIRST_READ) for s in self.steps}
        self.poll_seconds = poll_seconds
        self._ctx_factory = ctx_factory or (lambda: ProcessContext(now=time.time()))
        # Processors are pure, so they may run in worker processes: tokenising then uses
        # another core instead of competing for this process's GIL. None = a thread here.
        self.executor = executor
        self._wakes = {step.step_id: asyncio.Event() for step in self.steps}
        self.counters = RuntimeCounters()
        self._partitions: dict[str, int] = {}
        self._sink_lock = asyncio.Lock()  # the view sink and a repository rebuild never interleave
        self._keyed = KeyedStateRunner(event_log)  # keyed-state steps (memory), run here
        # Steps that cannot write for lack of space (each cleared once it succeeds again):
        # waiting for idle then fails fast with the error instead of waiting forever.
        self.storage_errors: dict[str, StorageFull] = {}
        self.health = LogHealth(fault_after_failures)
        self._versions_checked = False  # rederive_outdated runs once, before the first step
        self.contact = LogContact("event log")
        self.lag_watch: LagWatch[Lag] = LagWatch(self._watched_lag, self.contact)
        self._synced_noted = 0.0  # the last sync time written to the views (view_staleness)
        self.rebuild_log_s = REBUILD_LOG_S  # between progress lines of a views rebuild

    def notify(self) -> None:
        """Something was appended: wake every step now instead of at its next poll."""
        for wake in self._wakes.values():
            wake.set()

    async def _partitions_of(self, topic: str) -> int:
        if topic not in self._partitions:
            self._partitions[topic] = await self.log.partitions(topic)
        return self._partitions[topic]

    async def _committed(self, step: Step, topic: str, partition: int) -> int:
        if step.kind == "sink":
            return await asyncio.to_thread(self.views.committed, step.step_id, topic, partition)
        return await self.log.committed(step.step_id, topic, partition)

    def _sink_holds(self, step: Step, partitions: int, partition: int) -> bool:
        """Whether `step` reads this partition: a sharded view sink only its shard's."""
        return step.kind != "sink" or self.shard.holds_partition(partitions, partition)

    async def run_step(self, step: Step) -> int:
        """One batch per input topic-partition of `step`; returns records consumed."""
        consumed = 0
        limit = self._read_limits[step.step_id]
        ends = (await self.log.positions(step.inputs, [])).ends if self.log.remote else None
        for topic in step.inputs:
            n = await self._partitions_of(topic)
            for partition in range(n):
                if not self._sink_holds(step, n, partition):
                    continue  # another shard's repositories
                offset = await self._committed(step, topic, partition)
                if ends is not None and offset >= ends.get((topic, partition), offset + 1):
                    continue  # caught up: one batched end-offset request instead of a read
                batch = await self.log.read(topic, partition, offset, limit, self.batch_bytes)
                if not batch:
                    continue
                if step.kind == "keyed":  # state lives in this process: never the worker pool
                    tx, dead = await self._keyed.process(step, batch)
                    try:
                        await self.log.apply(tx)
                    except BaseException:
                        self._keyed.invalidate()
                        raise
                    self._keyed.committed(step)
                    self.counters.dead_letters += dead
                    self.notify()
                elif step.kind == "processor":
                    # CPU work off the event loop: tokenising here overlaps the sink's SQLite
                    # writes (which release the GIL) instead of queueing behind them.
                    tx, dead = await asyncio.get_running_loop().run_in_executor(
                        self.executor, process_batch, step, batch, self._ctx_factory()
                    )
                    await self.log.apply(tx)
                    self.counters.dead_letters += dead
                    self.notify()
                else:
                    async with self._sink_lock:
                        await self._sink(step, batch)
                consumed += len(batch)
        if consumed:
            self._read_limits[step.step_id] = min(self.batch_size, limit * 2)
        self.counters.processed += consumed
        return consumed

    async def _sink(self, step: Step, batch: list[StoredRecord]) -> None:
        mine = batch if self.shard.whole else [r for r in batch if self.shard.holds_key(r.key)]
        decoded, letters = await asyncio.to_thread(decode_for_sink, step.step_id, mine)
        if letters:  # dead letters first: at worst a duplicate letter, never a lost one
            await self.log.append(topics.DEADLETTER.name, letters)
            self.counters.dead_letters += len(letters)
        last = batch[-1]
        offsets = {(last.topic, last.partition): last.offset + 1}
        try:
            await asyncio.to_thread(self.views.apply, decoded, offsets, step.step_id)
        except Exception as exc:
            if storage_exhausted(exc):  # no record is at fault: never dead-letter, retry
                raise StorageFull.at(self.views.path, exc) from exc
            if store_busy(exc):  # another connection's lock: no record is at fault either
                raise
            log.exception("view batch failed; applying record by record to isolate it")
            await self._sink_one_by_one(step, batch)
        else:
            self.counters.applied_to_views += len(decoded)
        # Mirror the position into the log so compaction knows these tombstones were seen.
        await self.log.commit(self.sink_group or step.step_id, offsets)

    async def _sink_one_by_one(self, step: Step, batch: list[StoredRecord]) -> None:
        from streams.runtime.steps import dead_letter

        for record in batch:
            held = self.shard.holds_key(record.key)
            decoded, letters = decode_for_sink(step.step_id, [record]) if held else ([], [])
            offsets = {(record.topic, record.partition): record.offset + 1}
            try:
                await asyncio.to_thread(self.views.apply, decoded, offsets, step.step_id)
            except Exception as exc:
                if storage_exhausted(exc):
                    raise StorageFull.at(self.views.path, exc) from exc
                if store_busy(exc):  # locked out: retried from this record, never a letter
                    raise
                letters.append(dead_letter(step.step_id, record, exc))
                await asyncio.to_thread(self.views.apply, [], offsets, step.step_id)
            if letters:
                await self.log.append(topics.DEADLETTER.name, letters)
                self.counters.dead_letters += len(letters)

    async def run_once(self) -> int:
        """Every step once, in topology order (replay, tests); run_forever runs them apart."""
        total = 0
        for step in self.steps:
            total += await self.run_step(step)
        return total

    async def rebuild_repo(self, repo_id: str) -> dict[str, int]:
        """Drop one repository's code index from the views and re-derive it from the log.

        Reads the sink's topics (only the repository's partition) from offset 0 up to the
        sink's committed offsets, so the result equals what the sink had applied; records
        after that are applied by the sink as usual. Memory is never touched.
        """
        sinks = [s for s in self.steps if s.kind == "sink"]
        async with self._sink_lock:
            swept = await asyncio.to_thread(self.views.reset_repo, repo_id)
            prefix = f"{repo_id}/"
            for step in sinks:
                for topic in step.inputs:
                    if topic == topics.REPOS.name:
                        continue
                    n = await self._partitions_of(topic)
                    partition = topics.partition_for(prefix, n)
                    upto = await self._committed(step, topic, partition)
                    offset = 0
                    while offset < upto:
                        batch = await self.log.read(
                            topic,
                            partition,
                            offset,
                            min(self.batch_size, upto - offset),
                            self.batch_bytes,
                        )
                        if not batch:
                            break
                        offset = batch[-1].offset + 1
                        mine = [
                            r
                            for r in batch
                            if r.offset < upto and r.key and r.key.startswith(prefix)
                        ]
                        decoded, _ = decode_for_sink(step.step_id, mine)
                        await asyncio.to_thread(self.views.apply, decoded, {}, step.step_id)
        return swept

    async def rederive_outdated(self) -> dict[str, int]:
        """Once per runtime, before any step runs: rewind the steps whose records an older
        processor version made (streams/runtime/rederive.py), and queue the keyed steps'
        migrations (state an older version wrote); {step id: older version}."""
        if self._versions_checked:
            return {}
        self._versions_checked = True
        for step in self.steps:
            if step.kind == "keyed":
                await self._keyed.migrate(step)
        return await rederive_outdated(self.log, self.steps)

    async def run_until_idle(self, on_progress: Callable[[int], None] | None = None) -> int:
        await self.rederive_outdated()
        total = 0
        while n := await self.run_once():
            total += n
            if on_progress is not None:
                on_progress(n)
        return total

    async def run_forever(self, stop: asyncio.Event) -> None:
        """One task per step, so a slow sink and a CPU-bound processor overlap."""
        try:
            await self.rederive_outdated()
        except Exception:  # a faulted log: the steps' own loops meet it and report it
            log.exception("the processors' record versions could not be checked")
        watch = [self.lag_watch.run(stop)] if self.log.remote else []
        rebuild = report_views_rebuild(self.views, self.sink_position, stop, self.rebuild_log_s)
        await asyncio.gather(*watch, rebuild, *(self._step_loop(step, stop) for step in self.steps))

    async def _step_loop(self, step: Step, stop: asyncio.Event) -> None:
        wake = self._wakes[step.step_id]
        while not stop.is_set():
            wake.clear()
            try:
                consumed = await self.run_step(step)
                self.storage_errors.pop(step.step_id, None)
                self.health.step_succeeded(step.step_id)
                if self.log.remote:
                    self.contact.succeeded()
                if consumed:
                    continue
            except Exception as exc:
                if self.log.remote and isinstance(exc, CONTACT_ERRORS) and not _faulty(exc):
                    # the broker is away: the views keep answering; one line per outage
                    self.contact.failed(exc)
                elif store_busy(exc):  # one line, not a traceback: the lock is someone else's
                    log.warning(
                        "step %s: %s; another connection holds the write lock, retrying",
                        step.step_id,
                        exc,
                    )
                    self.health.step_failed(step.step_id, exc)  # held for long: a fault
                elif storage_exhausted(exc):
                    where = Path(self.views.path).parent  # the data directory
                    full = exc if isinstance(exc, StorageFull) else StorageFull.at(where, exc)
                    self.storage_errors[step.step_id] = full
                    log.error("step %s: %s", step.step_id, full)
                elif isinstance(exc, BrokenProcessPool):
                    # a worker died under the batch (the OOM killer; `timeout` or systemd
                    # sending SIGTERM to the whole group): known, so one line, no traceback;
                    # the next batch starts a new pool (IdlePool.submit)
                    log.warning(
                        "step %s: a worker process died under its batch; retrying%s",
                        step.step_id,
                        spawn_hint(),
                    )
                    self.health.step_failed(step.step_id, exc)
                else:
                    log.exception("step %s failed; retrying after a pause", step.step_id)
                    self.health.step_failed(step.step_id, exc)
            waiter = asyncio.ensure_future(wake.wait())
            stopper = asyncio.ensure_future(stop.wait())
            try:  # cancelled here at shutdown: the two waits must not outlive the loop
                await asyncio.wait(
                    {waiter, stopper}, timeout=self.poll_seconds, return_when="FIRST_COMPLETED"
                )
            finally:
                waiter.cancel()
                stopper.cancel()

    async def sink_position(self) -> tuple[int, int]:
        """(next offsets the view sink steps hold, the log's end offsets) summed over the
        partitions they read: how far a rebuild of the views has got."""
        sinks = [s for s in self.steps if s.kind == "sink"]
        inputs = sorted({t for s in sinks for t in s.inputs})
        ends = (await self.log.positions(inputs, [])).ends
        applied = end = 0
        for step in sinks:
            offsets = await asyncio.to_thread(self.views.offsets, step.step_id)
            for (topic, partition), high in ends.items():
                n = await self._partitions_of(topic)
                if topic in step.inputs and self._sink_holds(step, n, partition):
                    applied += offsets.get((topic, partition), 0)
                    end += high
        return applied, end

    async def lag(self) -> Lag:
        """Positions of every step against the log end, in two round trips (it is asked for on
        every answer): the view sink's offsets, then the log's positions. In that order a
        batch the sink applies between the two reads cannot look like views ahead of the
        log: the ends are read last and only grow."""
        topics_ = sorted({t for step in self.steps for t in step.inputs})
        groups = [s.step_id for s in self.steps if s.kind in ("processor", "keyed")]
        sink_offsets: dict[str, dict[tuple[str, int], int]] = {}
        for step in self.steps:
            if step.kind == "sink":
                sink_offsets[step.step_id] = await asyncio.to_thread(
                    self.views.offsets, step.step_id
                )
        positions = await self.log.positions(topics_, groups)
        applied = end = 0
        by_partition: dict[tuple[str, str, int], int] = {}
        behind_at: list[tuple[str, int, int]] = []
        ahead: list[tuple[str, int, int, int]] = []
        for step in self.steps:
            done = (
                sink_offsets[step.step_id]
                if step.kind == "sink"
                else positions.committed.get(step.step_id, {})
            )
            counts = {t: sum(1 for tt, _ in positions.ends if tt == t) for t in step.inputs}
            for (topic, partition), high in positions.ends.items():
                if topic not in step.inputs:
                    continue
                if not self._sink_holds(step, counts[topic], partition):
                    continue  # another shard's: never read here, never behind
                committed = done.get((topic, partition), 0)
                applied += committed
                end += high
                by_partition[(step.step_id, topic, partition)] = max(0, high - committed)
                if committed < high:
                    behind_at.append((topic, partition, committed))
                elif committed > high:  # the log lost what the views hold
                    ahead.append((topic, partition, committed, high))
        self.health.views_ahead(ahead)
        return Lag(
            applied=applied,
            end=end,
            behind=max(0, end - applied),
            seconds_behind=await self._seconds_behind(behind_at),
            by_partition=by_partition,
        )

    async def _seconds_behind(self, behind_at: list[tuple[str, int, int]]) -> float | None:
        """Age of the oldest unapplied event among the first partitions behind (0 when none
        is behind, None when none of them can say)."""
        if not behind_at:
            return 0.0
        oldest: int | None = None
        for topic, partition, committed in behind_at[:8]:
            first = await self.log.read(topic, partition, committed, 1)
            if first and (oldest is None or first[0].timestamp_ms < oldest):
                oldest = first[0].timestamp_ms
        return None if oldest is None else max(0.0, time.time() - oldest / 1000.0)

    async def _watched_lag(self) -> Lag:
        """The background measurement; also notes in the views up to when they are in step
        with the log (a restart far behind the tombstone retention rebuilds from scratch)."""
        lag = await self.lag()
        if lag.behind == 0 or lag.seconds_behind is not None:
            in_step_at = time.time() - (lag.seconds_behind or 0.0)
            if in_step_at - self._synced_noted >= SYNC_NOTE_EVERY_S:
                await asyncio.to_thread(record_synced, self.views, in_step_at)
                self._synced_noted = in_step_at
        return lag

    def current_lag(self) -> Lag | None:
        """For a remote log, the last background measurement (never waits on the broker),
        with the log's reachability now; None before the first measurement."""
        last = self.lag_watch.last
        if last is None:
            return None
        return dataclasses.replace(
            last,
            measured_at=self.lag_watch.measured_at,
            unreachable_since=self.contact.unreachable_since,
            error=self.contact.error if not self.contact.reachable else None,
        )

    async def check_log(self) -> None:
        """At start: the log's integrity check and the views' position against its end."""
        try:
            problems = await self.log.integrity_problems()
        except Exception as exc:  # a log too damaged to check is not sound either
            problems = [f"{type(exc).__name__}: {exc}"]
        self.health.log_integrity(problems)
        try:
            await self.lag()
        except Exception as exc:
            self.health.step_failed("start-up", exc)

    async def wait_through(
        self,
        ends: Mapping[tuple[str, int], int],
        timeout: float,
    ) -> bool:
        """Read-your-writes: wait until every step downstream of `ends` (log positions just
        after some appends) has consumed them, following each processor's outputs to the
        sink. Unlike wait_idle this converges while other changes keep arriving."""
        deadline = time.monotonic() + timeout
        frontier = {tp: end for tp, end in ends.items() if end > 0}
        while frontier:
            consumers = [s for s in self.steps if {t for t, _ in frontier} & set(s.inputs)]
            for step in consumers:
                for (topic, partition), end in frontier.items():
                    n = await self._partitions_of(topic)
                    if topic not in step.inputs or not self._sink_holds(step, n, partition):
                        continue
                    while await self._committed(step, topic, partition) < end:
                        if time.monotonic() > deadline:
                            return False
                        self.notify()
                        await asyncio.sleep(0.005)
            frontier = {}
            for step in consumers:
                for out in step.outputs:
                    for partition in range(await self._partitions_of(out)):
                        frontier[(out, partition)] = await self.log.end_offset(out, partition)
        return True

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until a pass finds nothing to do after this call; False on timeout. Polled
        10 ms first, doubling to 200 ms: each poll is log round trips and wakes every step,
        and an ingest waits here while its records are processed, so polling every 10 ms
        took the main thread from the steps it waited for."""
        deadline = time.monotonic() + timeout
        pause = IDLE_POLL_FIRST_S
        while time.monotonic() < deadline:
            for full in self.storage_errors.values():
                raise full
            if (await self.lag()).behind == 0:
                return True
            self.notify()
            await asyncio.sleep(pause)
            pause = min(IDLE_POLL_MAX_S, pause * 2)
        return False


def _faulty(exc: BaseException) -> bool:
    """An EventLogError that is the log refusing a request, not the log being away."""
    return isinstance(exc, EventLogError) and not isinstance(exc, LogUnreachable)
