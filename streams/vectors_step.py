"""The vector step: content and symbol records -> passages -> embeddings -> the vector store.

Its own consumer group (`vectors`) on the log, apart from the view sink, so embedding (slow:
tens of passages a second on a laptop CPU) never delays keyword indexing: vectors backfill in
the background while keyword search already answers. Per pass, in spec order (memory, files,
then symbols), it reads a batch of records, derives passages (pure, processors/vectors.py: one
per block of a source file; symbols records yield none, and only retire the symbol passages an
older version stored), asks
the store which passages already exist with the same content address, embeds only the rest in
batches of 32, upserts them, deletes passages the source no longer has, and commits its
offsets to the log. Point ids and content addresses are deterministic, so redelivery and
replay are harmless and unchanged passages are never re-embedded (also across a views replay,
as long as the vector store survived).

An embedder failure stops the pass without committing (the records are retried after a
backoff). A file with nothing to embed (empty, or not embedded by the rule in
processors/vectors.py) is never sent to the embedder: it gets a stored
contentless marker (a fixed pseudo-random vector, excluded from search and counts), so a
redelivery or replay finds it done, like any unchanged passage. When the corpus reaches
`ann_min_points` and more than 25 % of it is not in the HNSW graph, the step builds the index
(in a child process; see EdgeVectorStore.build_index) between batches, so no write races it.
Memory entries that expire produce no record, so an orphan sweep (every `sweep_seconds`, when
the step is idle) retires the vectors of entries whose expiry has passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from processors.vectors import (
    CONTENTLESS_IDX,
    CONTENTLESS_KIND,
    MAX_CHUNKS,
    Passage,
    contentless_marker,
    file_key,
    file_passages,
    memory_passages,
)
from schemas import codec, topics
from schemas.memory import MemoryEntry, memory_key
from schemas.records import ContentRecord
from streams.embedders.base import Embedder
from streams.eventlog.base import BATCH_BYTES, UNDECODABLE_KEY_MARK, EventLog, StoredRecord
from streams.pacer import ForegroundPacer
from streams.recent_vectors import RecentVectors
from streams.stores.vectors import VectorPoint, VectorStore, point_id
from streams.topology import VECTORS_STEP_ID, vector_step

log = logging.getLogger(__name__)

GROUP_PREFIX = VECTORS_STEP_ID  # one group per embedding space: a new model backfills from 0
EMBED_BATCH = 32
BUSY_EMBED_BATCH = 4  # while tool calls keep arriving: a short batch delays them least
RECORD_BATCH = 64
# While a backfill runs, the process's idle release (on_idle) also runs this often, checked
# between embedding batches: the page caches and the store's mapped pages it fills would
# otherwise be held through the backfill, beside the encoder child's peak.
RELEASE_EVERY_S = 30.0
KEYWORD_WAIT_S = 120.0  # the longest a batch waits for an in-memory keyword index's build
Wanted = tuple[str, Passage, str]  # (point id, the passage, its text hash in this space)


@dataclass
class VectorCounters:
    passages_embedded: int = 0
    passages_reused: int = 0
    embed_failures: int = 0
    builds: int = 0
    last_error: str | None = None
    failing: str | None = None  # the embedder's error while it fails; None once a batch lands
    last_build_s: float | None = None
    repos_pending: set[str] = field(default_factory=set)
    rate: float | None = None  # passages/s of recent batches (for coverage ETAs)
    # partition -> the next content offset this step will read (None before its first pass):
    # the coverage compares it with the views', whose files this step may not have embedded
    content_consumed: dict[int, int] | None = None

    def timed(self, passages: int, seconds: float) -> None:
        """Fold one batch into the rate (exponentially weighted: the load changes)."""
        if passages <= 0 or seconds <= 0:
            return
        now = passages / seconds
        self.rate = now if self.rate is None else 0.8 * self.rate + 0.2 * now


def marker_vector(point: str, dim: int) -> list[float]:
    """A contentless marker's vector: a store point needs one, and a fixed pseudo-random unit
    vector per marker keeps thousands of empty files from piling onto one spot of the graph."""
    rnd = random.Random(point)
    v = [rnd.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / norm for x in v]


class VectorIndexer:
    def __init__(
        self,
        event_log: EventLog,
        embedder: Embedder,
        store: VectorStore,
        *,
        ann_min_points: int = 1024,
        poll_seconds: float = 0.5,
        retry_seconds: float = 2.0,
        expired_memory: Callable[[float], list[tuple[str, str]]] | None = None,
        sweep_seconds: float = 5.0,
        pacer: ForegroundPacer | None = None,
        on_idle: Callable[[], object] | None = None,
        keyword_building: Callable[[], bool] | None = None,
    ) -> None:
        self.log = event_log
        # Called (in a thread) when the step has caught up after work and before an HNSW
        # build: the process hands back the memory its batches left cached (vector_plane).
        self.on_idle = on_idle
        # True while the views build an in-memory keyword index (blocking: it catches them up
        # first): a build holds old and new postings at once, so embedding batches (and the
        # encoder child's peak) wait for it.
        self.keyword_building = keyword_building
        self._worked = False
        self._released_at = time.monotonic()
        self.pacer = pacer  # tool calls in flight: embedding batches wait (the foreground lease)
        self.embedder = embedder
        self.store = store
        self.ann_min_points = ann_min_points
        self.poll_seconds = poll_seconds
        self.retry_seconds = retry_seconds
        self.expired_memory = expired_memory  # (repoId, key) of entries past their expiry
        self.sweep_seconds = sweep_seconds
        self._swept_at = 0.0
        self._retired: set[str] = set()  # memory keys whose vectors the sweep removed
        self.recent = RecentVectors()  # old passages of changed files, reused by content
        self.counters = VectorCounters()
        self.wake = asyncio.Event()
        self.building = False
        self._unindexable_at = 0
        self._store_checked = False  # rewind_if_store_lost runs once, before the first pass
        self._fp = store.space.fingerprint
        self.group = f"{GROUP_PREFIX}-{self._fp}"
        self.inputs = self.input_topics()

    @staticmethod
    def input_topics() -> tuple[str, ...]:
        """The topology's vector step's inputs (streams/topology.py), in their order."""
        return vector_step().inputs

    def notify(self) -> None:
        self.wake.set()

    # -- one pass ------------------------------------------------------------------------

    async def run_once(self) -> int:
        """One batch per input topic-partition; returns records consumed (0 = caught up)."""
        if not self._store_checked:
            await self.rewind_if_store_lost()
        consumed = 0
        content: dict[int, int] = {}
        for topic in self.inputs:
            for partition in range(await self.log.partitions(topic)):
                offset = await self.log.committed(self.group, topic, partition)
                batch = await self.log.read(topic, partition, offset, RECORD_BATCH, BATCH_BYTES)
                if batch:
                    await self.handle(topic, batch)
                    offset = batch[-1].offset + 1
                    await self.log.commit(self.group, {(topic, partition): offset})
                    consumed += len(batch)
                if topic == topics.CONTENT.name:
                    content[partition] = offset
        self.counters.content_consumed = content
        return consumed

    async def rewind_if_store_lost(self) -> bool:
        """An empty store behind committed offsets has lost its data (its directory deleted,
        a fresh Qdrant server): rewind this group to the start of the log so every vector is
        rebuilt. Content addresses make this safe when the store was truly empty."""
        self._store_checked = True
        committed: dict[tuple[str, int], int] = {}
        for topic in self.inputs:
            for partition in range(await self.log.partitions(topic)):
                committed[(topic, partition)] = await self.log.committed(
                    self.group, topic, partition
                )
        if not any(committed.values()) or (await asyncio.to_thread(self.store.state)).points:
            return False
        log.warning(
            "the vector store of %s is empty but the log was consumed into it; rebuilding every "
            "vector from the log",
            self.store.space.collection,
        )
        await self.log.commit(self.group, dict.fromkeys(committed, 0))
        return True

    async def rewind(self) -> None:
        """Re-consume every input from the start (replay): unchanged passages are found by
        their content address and never embedded again while the store survives."""
        offsets = {
            (topic, partition): 0
            for topic in self.inputs
            for partition in range(await self.log.partitions(topic))
        }
        await self.log.commit(self.group, offsets)

    async def behind(self) -> int:
        total = 0
        for topic in self.inputs:
            for partition in range(await self.log.partitions(topic)):
                end = await self.log.end_offset(topic, partition)
                total += max(0, end - await self.log.committed(self.group, topic, partition))
        return total

    async def handle(self, topic: str, batch: Sequence[StoredRecord]) -> None:
        """One batch of one input topic-partition into the store (both runtimes call this)."""
        latest: dict[str, StoredRecord] = {}
        for record in batch:  # replace-per-key topics: only the newest value matters
            # a key that is not UTF-8 names no repository: nothing to embed or retire
            if record.key is not None and not record.key.startswith(UNDECODABLE_KEY_MARK):
                latest[record.key] = record
        if topic == topics.REPOS.name:
            for key, record in latest.items():
                if record.value is None:
                    await asyncio.to_thread(self.store.delete_repo, key)
            return
        if topic == topics.MEMORY.name:
            await self._embed_and_store("memory", self._memory_sources(latest))
            return
        kind = "file" if topic == topics.CONTENT.name else "symbol"
        per_source: list[tuple[str, str, list[Passage]]] = []
        for key, record in latest.items():
            repo_id, _, path = key.partition("/")
            try:
                event = codec.decode(topic, record.value)
            except Exception:
                log.warning("vectors: undecodable %s@%d; skipped", topic, record.offset)
                continue
            per_source.append((repo_id, path, self._passages(kind, repo_id, path, event)))
        await self._embed_and_store(kind, per_source)

    def _memory_sources(
        self, latest: dict[str, StoredRecord]
    ) -> list[tuple[str, str, list[Passage]]]:
        """memory.v1 records (key repoId/topic/id) -> passages per entry; a tombstone or an
        entry already expired yields none, which retires its vectors."""
        now = time.time()
        out: list[tuple[str, str, list[Passage]]] = []
        for key, record in latest.items():
            parts = key.split("/", 2)
            if len(parts) != 3:
                continue
            try:
                entry = codec.decode(topics.MEMORY.name, record.value)
            except Exception:
                log.warning("vectors: undecodable memory record @%d; skipped", record.offset)
                continue
            mkey = memory_key(*parts)
            live = entry if isinstance(entry, MemoryEntry) else None
            passages = memory_passages(live, mkey, now)
            if passages:
                self._retired.discard(mkey)
            out.append((parts[0], mkey, passages))
        return out

    async def sweep_expired(self) -> int:
        """Retire the vectors of memory entries whose expiry has passed; returns how many."""
        if self.expired_memory is None:
            return 0
        self._swept_at = time.monotonic()
        expired = await asyncio.to_thread(self.expired_memory, time.time())
        todo = [(repo_id, key) for repo_id, key in expired if key not in self._retired]
        for repo_id, key in todo:
            await asyncio.to_thread(self.store.retain, repo_id, "memory", key, [])
            self._retired.add(key)
        return len(todo)

    def _passages(self, kind: str, repo_id: str, path: str, event: object) -> list[Passage]:
        if event is None:
            return []
        if isinstance(event, ContentRecord):
            return file_passages(repo_id, path, event.body) or [contentless_marker(repo_id, path)]
        return []  # a symbol's text is in its file's block; retain([]) retires old passages

    async def _embed_and_store(
        self, kind: str, per_source: list[tuple[str, str, list[Passage]]]
    ) -> None:
        todo = await self._changed_passages(kind, per_source)
        start = 0
        while start < len(todo):
            size = EMBED_BATCH
            if self.pacer is not None and not await self.pacer.wait_turn():
                size = BUSY_EMBED_BATCH  # agents keep calling: progress in short steps
            await self._after_keyword_builds()
            await self._embed_batch(todo[start : start + size])
            start += size
            await self._release_if_due()
            await asyncio.sleep(0)  # let the MCP server answer between batches
        for repo_id, path, passages in per_source:
            keep = [point_id(p.source_key, p.idx) for p in passages]
            await asyncio.to_thread(self.store.retain, repo_id, kind, path, keep)

    async def _changed_passages(
        self, kind: str, per_source: list[tuple[str, str, list[Passage]]]
    ) -> list[Wanted]:
        """The passages the store lacks at their content address, to embed. Contentless
        markers are stored here (they need no embedding), and a file's marker goes once the
        file has content or is gone."""
        wanted: list[Wanted] = [
            (point_id(p.source_key, p.idx), p, p.text_hash(self._fp))
            for _, _, passages in per_source
            for p in passages
        ]
        # Markers of files that now have content (or are gone) are looked up with the rest.
        stale_markers = [
            point_id(file_key(repo_id, path), CONTENTLESS_IDX)
            for repo_id, path, passages in per_source
            if kind == "file" and not any(p.kind == CONTENTLESS_KIND for p in passages)
        ]
        existing = await asyncio.to_thread(
            self.store.payloads, [w[0] for w in wanted] + stale_markers
        )
        if gone := [m for m in stale_markers if m in existing]:
            await asyncio.to_thread(self.store.delete_ids, gone)
        todo = [w for w in wanted if existing.get(w[0], {}).get("hash") != w[2]]
        self.counters.passages_reused += len(wanted) - len(todo)
        if markers := [w for w in todo if w[1].kind == CONTENTLESS_KIND]:
            await self._store_markers(markers)
        todo = [w for w in todo if w[1].kind != CONTENTLESS_KIND]
        if kind == "file":
            await self._remember_replaced(per_source, todo, existing)
            todo = await self._reuse_recent(todo)
        return todo

    async def _remember_replaced(
        self,
        per_source: list[tuple[str, str, list[Passage]]],
        todo: list[Wanted],
        existing: dict[str, dict[str, object]],
    ) -> None:
        """Keep (streams/recent_vectors.py) the stored passages of the files this batch
        deletes, and of those it changes that had points, before the new ones replace them."""
        had = {str(payload.get("source_key")) for payload in existing.values()}
        replaced = {w[1].source_key for w in todo} & had
        sources = [
            file_key(repo_id, path)
            for repo_id, path, passages in per_source
            if not passages or file_key(repo_id, path) in replaced
        ]
        ids = [point_id(source, i) for source in sources for i in range(MAX_CHUNKS)]
        if not ids:
            return
        old = await asyncio.to_thread(self.store.points, ids)
        self.recent.remember(
            (str(p.payload["hash"]), p.vector)
            for p in old
            if p.payload.get("kind") == "file" and isinstance(p.payload.get("hash"), str)
        )

    async def _reuse_recent(self, todo: list[Wanted]) -> list[Wanted]:
        """Store the passages whose text a file lately had under their new ids with the kept
        vectors; the rest, to embed."""
        found = [(w, self.recent.get(w[2])) for w in todo]
        reused = [
            VectorPoint(pid, vector, self._payload(p, h))
            for (pid, p, h), vector in found
            if vector is not None
        ]
        if reused:
            await asyncio.to_thread(self.store.upsert, reused)
            self.counters.passages_reused += len(reused)
        return [w for w, vector in found if vector is None]

    async def _store_markers(self, markers: list[Wanted]) -> None:
        """Contentless files as points with a fixed vector: they need no embedding."""
        dim = self.store.space.dimension
        points = [
            VectorPoint(pid, marker_vector(pid, dim), self._payload(p, h)) for pid, p, h in markers
        ]
        await asyncio.to_thread(self.store.upsert, points)

    async def _embed_batch(self, chunk: list[Wanted]) -> None:
        """Embed one batch and upsert its points; a failed embedding raises EmbedFailed."""
        began = time.perf_counter()
        result = await asyncio.to_thread(self.embedder.embed, [w[1].text for w in chunk])
        if not result.ok:
            error = result.error or "embedding failed"
            self.counters.embed_failures += 1
            self.counters.last_error = error
            changed = self.counters.failing != error
            self.counters.failing = error
            raise EmbedFailed(error, changed=changed)
        if self.counters.failing is not None:
            log.info(
                "vector step: the embedder answers again (it failed: %s)", self.counters.failing
            )
            self.counters.failing = None
        self.counters.timed(len(chunk), time.perf_counter() - began)
        points = [
            VectorPoint(id=pid, vector=vector, payload=self._payload(p, h))
            for (pid, p, h), vector in zip(chunk, result.vectors, strict=True)
        ]
        await asyncio.to_thread(self.store.upsert, points)
        self.counters.passages_embedded += len(points)

    def _payload(self, p: Passage, text_hash: str) -> dict[str, object]:
        return {
            "repo_id": p.repo_id,
            "kind": p.kind,
            "source_key": p.source_key,
            "path": p.path,
            "idx": p.idx,
            "hash": text_hash,
            "fq": p.fq,
            "space": self._fp,
        }

    # -- the HNSW build --------------------------------------------------------------------

    async def maybe_build(self) -> bool:
        state = await asyncio.to_thread(self.store.state)
        if state.points < self.ann_min_points or state.indexed >= 0.75 * state.points:
            return False
        if state.points < 1.25 * self._unindexable_at:
            return False  # a build that indexed nothing (store thresholds) is not retried at once
        release = getattr(self.embedder, "release_idle", None)  # the local embedder's child
        if release is not None:  # its model copy is not held through the build's peak
            await asyncio.to_thread(release)
        await self.idle()  # nor this process's caches
        self.building = True
        started = time.perf_counter()
        try:
            built = await asyncio.to_thread(self.store.build_index)
        finally:
            self.building = False
        self.counters.last_build_s = time.perf_counter() - started
        await self.idle()  # the swapped-in shard's load leaves its own garbage
        if built:
            self.counters.builds += 1
            after = await asyncio.to_thread(self.store.state)
            self._unindexable_at = after.points if after.indexed == 0 else 0
        return built

    async def _after_keyword_builds(self) -> None:
        """Wait (up to KEYWORD_WAIT_S) while an in-memory keyword index is built, then hand
        back what the build freed: the first batch of a backfill starts the encoder child just
        as a search rebuilds the index of the repository whose keyword indexing just ended."""
        if not await self._keyword_building():
            return
        deadline = time.monotonic() + KEYWORD_WAIT_S
        while await self._keyword_building() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await self.idle()

    async def _keyword_building(self) -> bool:
        """The hook's answer; a failure (the views closing) is no reason to stop embedding."""
        if self.keyword_building is None:
            return False
        try:
            return await asyncio.to_thread(self.keyword_building)
        except Exception:
            log.debug(
                "vector step: asking the views about keyword index builds failed", exc_info=True
            )
            return False

    async def _release_if_due(self) -> None:
        """`on_idle` every RELEASE_EVERY_S of a backfill, between batches: one record batch of
        large files can take minutes to embed."""
        if time.monotonic() - self._released_at >= RELEASE_EVERY_S:
            await self.idle()

    async def idle(self) -> None:
        """Run `on_idle` once per stretch of work (a failure is logged: it only frees memory)."""
        self._worked, self._released_at = False, time.monotonic()
        if self.on_idle is None:
            return
        try:
            await asyncio.to_thread(self.on_idle)
        except Exception:
            log.exception("vector step: releasing idle memory failed")

    # -- the loop --------------------------------------------------------------------------

    async def run_until_idle(self) -> int:
        total = 0
        while n := await self.run_once():
            total += n
        await self.sweep_expired()
        if not await self.maybe_build() and total:
            await self.idle()
        return total

    async def run_forever(self, stop: asyncio.Event) -> None:
        if not await asyncio.to_thread(self.embedder.is_available):
            log.warning("vector step: the embedder is not available; retrying in the background")
        while not stop.is_set():
            self.wake.clear()
            pause = self.poll_seconds
            try:
                if await self.run_once():
                    self._worked = True
                    await self._release_if_due()
                    continue
                if time.monotonic() - self._swept_at >= self.sweep_seconds:
                    await self.sweep_expired()
                if not await self.maybe_build() and self._worked:
                    await self.idle()
            except EmbedFailed as exc:  # said once per error, not on every retry
                level = logging.WARNING if exc.changed else logging.DEBUG
                log.log(level, "vector step: %s; retrying every %g s", exc, self.retry_seconds)
                pause = self.retry_seconds
            except Exception:
                log.exception("vector step failed; retrying")
                pause = self.retry_seconds
            with contextlib.suppress(asyncio.TimeoutError):
                waiter = asyncio.ensure_future(self.wake.wait())
                stopper = asyncio.ensure_future(stop.wait())
                try:  # cancelled here at shutdown: the two waits must not outlive the loop
                    await asyncio.wait(
                        {waiter, stopper}, timeout=pause, return_when="FIRST_COMPLETED"
                    )
                finally:
                    waiter.cancel()
                    stopper.cancel()


class EmbedFailed(Exception):
    def __init__(self, error: str, *, changed: bool = True) -> None:
        super().__init__(error)
        self.changed = changed  # a new error, not the one the last retry met
