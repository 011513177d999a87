"""The vector step on Kafka (`repocontext worker --step vectors`): embeddings into a Qdrant server.

A faust app in the vector step's own consumer group (`vectors-<space fingerprint>`, the group
the embedded runtime and `repocontext replay` use too) whose agent hands each batch of memory,
content, symbol and repository records to the same `VectorIndexer.handle` as the embedded
runtime. The store is the Qdrant server that every query replica reads, so replicas never embed
(DESIGN §6). Running the step in N processes spreads the input partitions, and so the embedding
work, over them; a dead member's partitions move to the others.

Per batch, in spec order (memory -> files -> symbols -> repositories), then:
1. the store's upserts and deletes, each acknowledged by the server;
2. ack the events to faust, whose consumer commits acked offsets.
A crash between 1 and 2 re-delivers the batch; point ids and content addresses make that
harmless (an unchanged passage is found in the store and never embedded again). An embedder or
store failure keeps the batch unacked and retries it after a pause: nothing is skipped while
either is down.

Expired memory entries produce no record, so their vectors are retired by a sweep. A worker
has no views to ask, so `MemoryExpiry` reads the compacted memory topic once at start and then
follows the memory records the step handles.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from schemas import codec, topics
from schemas.memory import MemoryEntry, memory_key
from streams.eventlog.base import BATCH_BYTES, EventLog, StoredRecord
from streams.eventlog.kafka import KafkaEventLog
from streams.runtime.faust_app import (
    ack_batches,
    attach_raw_agent,
    make_app,
    stop_after_batch,
    stored_record,
)
from streams.vectors_step import VectorIndexer

log = logging.getLogger(__name__)

STEP_ID = "vectors"
RETRY_PAUSE_S = 1.0  # first pause between attempts at a batch while the embedder or the
MAX_RETRY_PAUSE_S = 30.0  # store refuses; it doubles up to this
HOUSEKEEPING_S = 5.0  # expired-memory sweep and index check, between batches


class MemoryExpiry:
    """The expiry of every memory entry that has one, by memory key, for the sweep."""

    def __init__(self) -> None:
        self._expires: dict[str, tuple[str, float]] = {}  # memory key -> (repoId, expires_at)

    def observe(self, record: StoredRecord) -> None:
        parts = (record.key or "").split("/", 2)
        if len(parts) != 3:
            return
        mkey = memory_key(*parts)
        entry: object = None
        if record.value is not None:
            with contextlib.suppress(Exception):  # undecodable: the step skips it too
                entry = codec.decode(topics.MEMORY.name, record.value)
        if isinstance(entry, MemoryEntry) and entry.expires_at is not None:
            self._expires[mkey] = (parts[0], entry.expires_at)
        else:
            self._expires.pop(mkey, None)

    async def load(self, event_log: EventLog) -> int:
        """Read the memory topic from its start (compacted: one record per live entry)."""
        seen = 0
        for partition in range(await event_log.partitions(topics.MEMORY.name)):
            offset = 0
            while batch := await event_log.read(topics.MEMORY.name, partition, offset, 500):
                for record in batch:
                    self.observe(record)
                seen += len(batch)
                offset = batch[-1].offset + 1
        return seen

    def expired(self, now: float) -> list[tuple[str, str]]:
        return [(repo, key) for key, (repo, at) in self._expires.items() if at <= now]

    def __len__(self) -> int:
        return len(self._expires)


class FaustVectorStep:
    """The vector step as a faust app whose single agent adapts `VectorIndexer.handle`."""

    def __init__(
        self,
        event_log: KafkaEventLog,
        indexer: VectorIndexer,
        datadir: Path,
        *,
        batch_size: int = 64,
        batch_bytes: int = BATCH_BYTES,
        shutdown_timeout_s: float = 30.0,
        commit_interval_s: float = 1.0,
        session_timeout_s: float = 10.0,
    ) -> None:
        self.log = event_log
        self.indexer = indexer
        self.expiry = MemoryExpiry()
        indexer.expired_memory = self.expiry.expired
        self.batch_size = batch_size
        self.batch_bytes = batch_bytes
        self.shutdown_timeout_s = shutdown_timeout_s
        self._stopping = False
        self.events_handled = 0  # input events of batches that completed
        self._busy = asyncio.Lock()  # one batch or one housekeeping pass at a time
        self._housekeeping: asyncio.Task[None] | None = None
        self.app = make_app(
            event_log,
            indexer.group,
            datadir,
            commit_interval_s=commit_interval_s,
            session_timeout_s=session_timeout_s,
        )
        attach_raw_agent(self.app, event_log, indexer.inputs, STEP_ID, self._agent)

    @property
    def step_id(self) -> str:
        return STEP_ID

    @property
    def counters(self) -> Any:
        return self.indexer.counters

    @property
    def group(self) -> str:
        return self.indexer.group

    @property
    def inputs(self) -> tuple[str, ...]:
        return tuple(self.indexer.inputs)

    @property
    def dead_letters(self) -> int:
        return 0  # a failed batch is retried until it goes through, never dead-lettered

    async def _agent(self, stream: Any) -> None:
        await ack_batches(
            stream, self.batch_size, 0.5, self._busy, self._handle_until_done, self.batch_bytes
        )

    async def _handle_until_done(self, events: list[Any]) -> bool:
        """False = stopping with the batch unfinished (it stays unacked)."""
        pause = RETRY_PAUSE_S
        while not self._stopping:
            try:
                await self._handle(events)
                self.events_handled += len(events)
                return True
            except Exception as exc:  # the embedder or the store is down: back off, keep it
                self.indexer.counters.last_error = f"{type(exc).__name__}: {exc}"[:500]
                log.warning("vector step: batch failed (%s); retrying in %.0f s", exc, pause)
                await asyncio.sleep(pause)
                pause = min(MAX_RETRY_PAUSE_S, pause * 2)
        return False

    async def _handle(self, events: list[Any]) -> None:
        by_topic: dict[str, dict[int, list[StoredRecord]]] = {}
        for event in events:
            record = stored_record(self.log, event)
            by_topic.setdefault(record.topic, {}).setdefault(record.partition, []).append(record)
        for topic in self.indexer.inputs:  # memory -> files -> symbols -> repositories
            for records in by_topic.get(topic, {}).values():
                await self.indexer.handle(topic, records)
                if topic == topics.MEMORY.name:
                    for record in records:
                        self.expiry.observe(record)

    async def _housekeep(self) -> None:
        while not self._stopping:
            await asyncio.sleep(HOUSEKEEPING_S)
            async with self._busy:
                try:
                    await self.indexer.sweep_expired()
                    await self.indexer.maybe_build()
                except Exception:
                    log.exception("vector step: housekeeping failed; retrying")

    async def start(self) -> None:
        for topic in self.indexer.inputs:
            await self.log.partitions(topic)  # provisioned beforehand: missing is an error
        # before joining the group: a rewind commits outside any generation
        await self.indexer.rewind_if_store_lost()
        log.info("vector step: %d memory expiries loaded", await self.expiry.load(self.log))
        self.app.conf.datadir.mkdir(parents=True, exist_ok=True)
        await self.app.start()
        self._housekeeping = asyncio.create_task(self._housekeep())

    def close(self) -> None:
        """Release the store's client and the embedder (after `stop`)."""
        for part in (self.indexer.store, self.indexer.embedder):
            with contextlib.suppress(Exception):
                part.close()

    async def stop(self) -> None:
        """Finish the batch in hand, then stop the app (commit acked offsets, leave the group)."""
        self._stopping = True
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        await stop_after_batch(self.app, self._busy, self.shutdown_timeout_s, "vector step")
