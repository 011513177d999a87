"""Distributed EventLog on aiokafka: `kafka://host:port[,host:port]?prefix=p.&replication_factor=N`.

Same contract as the SQLite log, with Kafka's semantics where they differ (DESIGN §5):
- Partitions: records go to `partition_for(key)` explicitly (crc32 of the repoId), never to
  Kafka's default partitioner, so both backends place every key alike.
- Offsets: a plain (non-transactional) producer with acks=all writes contiguous offsets.
- `apply()` validates everything first (unknown topic, bad partition or offset: nothing is
  written), then produces the appends and waits for their acks, then commits the groups'
  offsets through the group coordinator. That is at-least-once, not atomic: a crash between
  produce and commit re-delivers the input, so consumers must be idempotent (they are:
  deterministic ids, replace-per-file records).
- Keys: Kafka refuses keyless records on compacted topics, so a `None` key travels as
  0xFF + 16 random bytes (never valid UTF-8, so no str key can collide) and reads back as None;
  every such record has its own key and compaction never drops it, exactly as on SQLite.
- Compaction and retention are the broker's job (log cleaner, retention checker) and run in
  the background on closed segments: `compact()` only validates the topic and returns 0.
  Tombstones stay `delete.retention.ms` (= tombstone_retention_ms) after cleaning; the broker
  does not wait for consumer groups as the embedded log does.
- Group offsets are committed without joining the group (generation -1), the way Kafka tools
  reset offsets; a group with live members (a faust worker) rejects such commits.
- `prefix` namespaces topics and groups (several deployments or test runs on one cluster);
  records and errors show the unprefixed names.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType
from aiokafka.errors import (
    BrokerResponseError,
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    TopicAlreadyExistsError,
    for_code,
)
from aiokafka.protocol.commit import OffsetCommitRequest, OffsetFetchRequest

from schemas.topics import TopicSpec, partition_for
from streams.errors import EventLogError, LogUnreachable
from streams.eventlog import compaction as cp
from streams.eventlog.base import (
    EventLog,
    LogRecord,
    Positions,
    StoredRecord,
    Transaction,
    decode_key_text,
    within_budget,
)
from streams.eventlog.base import TopicPartition as TP
from streams.eventlog.kafka_security import KafkaSecurity
from streams.eventlog.kafka_url import parse_kafka_url as parse_kafka_url  # re-exported

NONE_KEY_MARK = b"\xff"
_RETRIABLE_COMMIT = {14, 15, 16}  # coordinator loading / not available / not coordinator
_NOT_AUTHORIZED = {29, 30, 31}  # topic / group / cluster authorization failed (broker ACLs)


def failure(what: str, exc: KafkaError) -> EventLogError:
    """`what` failed because of `exc`: LogUnreachable when the broker did not answer (time-outs,
    lost connections, retriable errors: readers keep serving and retry), else EventLogError."""
    unreachable = isinstance(exc, KafkaTimeoutError | KafkaConnectionError) or exc.retriable
    return (LogUnreachable if unreachable else EventLogError)(f"{what}: {exc}")


def broker_code(exc: KafkaError) -> int | None:
    """The broker's error code, or None for an error raised by the client itself (a node not
    ready, a lost connection): aiokafka gives only a broker response's errors an `errno`."""
    return exc.errno if isinstance(exc, BrokerResponseError) else None


def _retrieved(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()


def encode_key(key: str | None) -> bytes:
    return NONE_KEY_MARK + os.urandom(16) if key is None else key.encode("utf-8")


def decode_key(raw: bytes | None) -> str | None:
    """The key as written; one that is not UTF-8 reads back marked (base.decode_key_text)."""
    if raw is None or raw.startswith(NONE_KEY_MARK):
        return None
    return decode_key_text(raw)


# The largest record the producer sends (a files.v1 body may be up to the indexed limit,
# schemas.events.INDEXED_CHARS_RANGE), and what each topic accepts: the broker's default of
# ~1 MB would refuse a large file's record; the slack covers the record batch's own header.
MAX_RECORD_BYTES = 8 * 2**20
TOPIC_MAX_MESSAGE_BYTES = MAX_RECORD_BYTES + 64 * 1024


def kafka_topic_configs(
    cfg: cp.TopicConfig, tombstone_retention_ms: int, extra: Mapping[str, str]
) -> dict[str, str]:
    """The broker-side configuration of one catalogue topic."""
    out = {
        "cleanup.policy": cfg.cleanup,
        # compact topics never expire by time; memory must not (DESIGN §3)
        "retention.ms": str(
            cfg.retention_ms if cfg.cleanup == "delete" and cfg.retention_ms else -1
        ),
        "delete.retention.ms": str(tombstone_retention_ms),
        "message.timestamp.type": "CreateTime",
        "max.message.bytes": str(TOPIC_MAX_MESSAGE_BYTES),
    }
    out.update(extra)
    return out


class KafkaEventLog(EventLog):
    """See the module docstring. Clients start on first use (the factory is synchronous)."""

    remote = True

    def __init__(
        self,
        url: str,
        *,
        tombstone_retention_ms: int = cp.DEFAULT_TOMBSTONE_RETENTION_MS,
        clock: cp.Clock = cp.wall_clock_ms,
        topic_configs: Mapping[str, str] | None = None,
        request_timeout_s: float = 30.0,
        compact_threshold: int | None = None,  # the broker decides when to clean
        background_compaction: bool = True,  # ditto; accepted for a uniform factory
        security: KafkaSecurity | None = None,  # SASL (and TLS); None: plain, unauthenticated
    ) -> None:
        del compact_threshold, background_compaction
        self.url = url
        self.security = security
        self.bootstrap, opts = parse_kafka_url(url)
        self.prefix = opts.get("prefix", "")
        self.replication_factor = int(opts.get("replication_factor", "1"))
        self._client_id = opts.get("client_id", "repocontext")
        self._tombstone_retention_ms = tombstone_retention_ms
        self._clock = clock
        self._extra_configs = dict(topic_configs or {})
        self._timeout_s = request_timeout_s
        self._topics: dict[str, cp.TopicConfig] = {}
        self._admin: AIOKafkaAdminClient | None = None
        self._producer: AIOKafkaProducer | None = None
        self._reader: AIOKafkaConsumer | None = None
        self._start_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._closed = False
        self.instance_id = ""  # the cluster id as 32 hex digits, known once started

    # -- plumbing -----------------------------------------------------------------------------
    def physical_topic(self, topic: str) -> str:
        return self.prefix + topic

    def physical_group(self, group: str) -> str:
        return self.prefix + group

    async def _start(self) -> AIOKafkaAdminClient:
        if self._closed:
            raise EventLogError(f"{self.url} event log is closed")
        if self._admin is not None:
            return self._admin
        async with self._start_lock:
            if self._admin is not None:
                return self._admin
            timeout_ms = int(self._timeout_s * 1000)
            common: dict[str, Any] = {
                "bootstrap_servers": self.bootstrap,
                "request_timeout_ms": timeout_ms,
                **(self.security.aiokafka_options() if self.security else {}),
            }
            admin = AIOKafkaAdminClient(client_id=self._client_id, **common)
            producer = AIOKafkaProducer(
                client_id=self._client_id,
                acks="all",
                linger_ms=0,
                max_request_size=MAX_RECORD_BYTES,
                **common,
            )
            reader = AIOKafkaConsumer(
                client_id=self._client_id + "-reader",
                group_id=None,
                enable_auto_commit=False,
                auto_offset_reset="earliest",
                fetch_max_wait_ms=50,
                max_partition_fetch_bytes=MAX_RECORD_BYTES,
                **common,
            )
            try:
                await admin.start()
                cluster = await admin.describe_cluster()
                await producer.start()
                await reader.start()
            except BaseException as exc:  # cancelled too: a client left open warns at exit
                for client in (reader, producer, admin):
                    with contextlib.suppress(Exception):
                        await (client.stop() if hasattr(client, "stop") else client.close())
                if not isinstance(exc, KafkaError):
                    raise
                if self.security is not None and isinstance(exc, KafkaConnectionError):
                    refusal = await self.security.login_refusal(self.bootstrap, timeout_ms)
                    if refusal is not None:  # final, not "unreachable": retrying cannot help
                        raise EventLogError(f"Kafka at {self.bootstrap}: {refusal}") from exc
                raise failure(f"cannot reach Kafka at {self.bootstrap}", exc) from exc
            raw = str(cluster["cluster_id"])
            self.instance_id = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).hex()
            self._producer, self._reader, self._admin = producer, reader, admin
            return admin

    async def _load(self, names: Sequence[str]) -> dict[str, cp.TopicConfig]:
        """Partitions and policy of those `names` (unprefixed) that exist on the broker."""
        admin = await self._start()
        phys = [self.physical_topic(n) for n in names]
        try:
            existing = set(await admin.list_topics())
            wanted = [p for p in phys if p in existing]
            if not wanted:
                return {}
            described = await admin.describe_topics(wanted)
            configs = await admin.describe_configs(
                [ConfigResource(ConfigResourceType.TOPIC, p) for p in wanted]
            )
        except KafkaError as exc:
            raise failure(f"{self.url}: cannot describe topics", exc) from exc
        counts = {t["topic"]: len(t["partitions"]) for t in described if not t["error_code"]}
        found: dict[str, cp.TopicConfig] = {}
        for response in configs:
            for _err, _msg, _type, name, entries, *_ in response.resources:
                values = {e[0]: e[1] for e in entries}
                if name not in counts:
                    continue
                retention = int(values.get("retention.ms", "-1"))
                cleanup = values.get("cleanup.policy", "delete")
                found[name.removeprefix(self.prefix)] = cp.TopicConfig(
                    counts[name],
                    cleanup,  # a foreign policy (e.g. "compact,delete") reads as a mismatch
                    retention if retention >= 0 and cleanup == "delete" else None,
                )
        self._topics.update(found)
        return found

    async def _topic(self, topic: str, partition: int | None = None) -> cp.TopicConfig:
        await self._start()
        if topic not in self._topics:
            await self._load([topic])  # another process may have created it
        if partition is None:
            return cp.topic_config(self._topics, topic)
        return cp.check_partition(self._topics, topic, partition)

    # -- EventLog -----------------------------------------------------------------------------
    async def create_topics(self, specs: Sequence[TopicSpec]) -> None:
        admin = await self._start()
        existing = await self._load([s.name for s in specs])
        changes = cp.merge_specs(existing, specs)
        new = [n for n in changes if n not in existing]
        altered = [n for n in changes if n in existing]
        try:
            if new:
                await self._create(admin, {n: changes[n] for n in new})
            if altered:
                await admin.alter_configs(
                    [
                        ConfigResource(
                            ConfigResourceType.TOPIC,
                            self.physical_topic(n),
                            kafka_topic_configs(
                                changes[n], self._tombstone_retention_ms, self._extra_configs
                            ),
                        )
                        for n in altered
                    ]
                )
        except KafkaError as exc:
            raise failure(f"{self.url}: cannot create topics", exc) from exc
        self._topics.update(changes)

    async def _create(self, admin: AIOKafkaAdminClient, todo: dict[str, cp.TopicConfig]) -> None:
        topics = [
            NewTopic(
                self.physical_topic(n),
                c.partitions,
                self.replication_factor,
                topic_configs=kafka_topic_configs(
                    c, self._tombstone_retention_ms, self._extra_configs
                ),
            )
            for n, c in todo.items()
        ]
        response = await admin.create_topics(topics)
        raced = []
        for name, code, *rest in response.topic_errors:
            if code == TopicAlreadyExistsError.errno:
                raced.append(name.removeprefix(self.prefix))
            elif code:
                raise EventLogError(f"cannot create topic {name}: {rest[0] if rest else code}")
        if raced:  # created by someone else meanwhile (or not yet in our metadata): must match
            deadline = time.monotonic() + self._timeout_s
            while len(have := await self._load(raced)) < len(raced):
                if time.monotonic() > deadline:
                    raise EventLogError(f"topics {raced} exist but cannot be described")
                await asyncio.sleep(0.05)
            cp.merge_specs(
                have,
                [
                    TopicSpec(
                        name=n, key="", partitions=todo[n].partitions, cleanup=todo[n].cleanup
                    )
                    for n in raced
                ],
            )
        await self._wait_for_leaders(admin, [self.physical_topic(n) for n in todo])

    async def _wait_for_leaders(self, admin: AIOKafkaAdminClient, topics: list[str]) -> None:
        deadline = time.monotonic() + self._timeout_s
        while True:
            described = await admin.describe_topics(topics)
            if all(
                not t["error_code"]
                and t["partitions"]
                and all(p["leader"] >= 0 for p in t["partitions"])
                for t in described
            ):
                return
            if time.monotonic() > deadline:
                raise EventLogError(f"topics {topics} got no partition leaders in time")
            await asyncio.sleep(0.05)

    async def partitions(self, topic: str) -> int:
        return (await self._topic(topic)).partitions

    async def append(self, topic: str, records: Sequence[LogRecord]) -> list[tuple[int, int]]:
        return await self.apply(Transaction(appends=[(topic, r) for r in records]))

    async def apply(self, tx: Transaction) -> list[tuple[int, int]]:
        """Validate all, produce and await every ack, then commit offsets (at-least-once)."""
        await self._start()
        routed: list[tuple[str, int, LogRecord]] = []
        for topic, record in tx.appends:
            cfg = await self._topic(topic)
            cp.check_record(topic, record)
            routed.append((topic, partition_for(record.key, cfg.partitions), record))
        for group, offsets in tx.commits.items():
            for (topic, partition), offset in offsets.items():
                await self._topic(topic, partition)
                cp.check_offset(group, offset)
        producer = self._producer
        assert producer is not None
        placed: list[tuple[int, int]] = []
        futures: list[asyncio.Future[Any]] = []
        try:
            now = self._clock()
            for topic, partition, record in routed:
                fut = await producer.send(
                    self.physical_topic(topic),
                    value=record.value,
                    key=encode_key(record.key),
                    partition=partition,
                    timestamp_ms=now if record.timestamp_ms is None else record.timestamp_ms,
                )
                # A failed ack that nobody awaits (an earlier one raised first) would be
                # logged by asyncio as "Future exception was never retrieved", once per
                # record: hundreds of lines per batch while the broker is away.
                fut.add_done_callback(_retrieved)
                futures.append(fut)
            for fut in futures:
                meta = await fut
                placed.append((meta.partition, meta.offset))
        except KafkaError as exc:
            raise failure(f"{self.url}: produce failed", exc) from exc
        for group, offsets in tx.commits.items():
            await self._commit(group, offsets)
        return placed

    async def read(
        self,
        topic: str,
        partition: int,
        from_offset: int,
        max_records: int = 500,
        max_bytes: int | None = None,
    ) -> list[StoredRecord]:
        await self._topic(topic, partition)
        if max_records <= 0:
            return []
        tp = TopicPartition(self.physical_topic(topic), partition)
        reader = self._reader
        assert reader is not None
        out: list[StoredRecord] = []
        async with self._read_lock:
            try:
                end = (await reader.end_offsets([tp]))[tp]
                if from_offset >= end:
                    return []
                reader.assign([tp])
                reader.seek(tp, max(0, from_offset))
                deadline = time.monotonic() + self._timeout_s
                while (
                    len(out) < max_records
                    and not _over_budget(out, max_bytes)
                    and await reader.position(tp) < end
                ):
                    if time.monotonic() > deadline:
                        raise LogUnreachable(f"{self.url}: read of {topic}[{partition}] timed out")
                    got = await reader.getmany(
                        tp, timeout_ms=200, max_records=max_records - len(out)
                    )
                    for msg in got.get(tp, []):
                        if msg.offset >= from_offset:
                            out.append(
                                StoredRecord(
                                    topic,
                                    partition,
                                    msg.offset,
                                    decode_key(msg.key),
                                    msg.value,
                                    msg.timestamp,
                                )
                            )
            except KafkaError as exc:
                raise failure(f"{self.url}: read failed", exc) from exc
            finally:
                # An assigned partition keeps the fetcher long-polling it (fetch_max_wait_ms),
                # and the broker answers a connection's requests in order: every end-offset
                # request (`positions`, the next read) waited out that poll, 50 ms each.
                with contextlib.suppress(Exception):
                    reader.pause(tp)
        return within_budget(out, max_records, max_bytes)

    async def end_offset(self, topic: str, partition: int) -> int:
        await self._topic(topic, partition)
        tp = TopicPartition(self.physical_topic(topic), partition)
        assert self._reader is not None
        try:
            return int((await self._reader.end_offsets([tp]))[tp])
        except KafkaError as exc:
            raise failure(f"{self.url}: cannot read end offsets", exc) from exc

    async def start_offsets(self, topic: str) -> dict[int, int]:
        n = await self.partitions(topic)
        tps = [TopicPartition(self.physical_topic(topic), p) for p in range(n)]
        assert self._reader is not None
        try:
            raw = await self._reader.beginning_offsets(tps)
        except KafkaError as exc:
            raise failure(f"{self.url}: cannot read start offsets", exc) from exc
        return {k.partition: int(v) for k, v in raw.items()}

    async def committed(self, group: str, topic: str, partition: int) -> int:
        await self._topic(topic, partition)
        got = await self._fetch_committed(group, [(topic, partition)])
        return got[(topic, partition)]

    async def _fetch_committed(self, group: str, tps: Sequence[TP]) -> dict[TP, int]:
        """OffsetFetch from the group's coordinator. Retries while the coordinator is missing
        or still loading its offsets (after a broker restart it answers LOAD_IN_PROGRESS in
        the top-level error code, which aiokafka's admin helper does not check)."""
        admin = await self._start()
        by_topic: dict[str, list[int]] = {}
        for topic, partition in tps:
            by_topic.setdefault(self.physical_topic(topic), []).append(partition)
        request = OffsetFetchRequest(self.physical_group(group), list(by_topic.items()))
        deadline = time.monotonic() + self._timeout_s
        while True:
            try:
                node = await admin.find_coordinator(self.physical_group(group))
                response = await admin._send_request_to_node(node, request)
                codes = {getattr(response, "error_code", 0)}
                codes |= {c for _t, parts in response.topics for *_, c in parts}
                if not codes - {0}:
                    break
                code = max(codes)
                if code not in _RETRIABLE_COMMIT:
                    raise for_code(code)(f"offsets of {group}")
            except KafkaError as exc:
                if broker_code(exc) not in _RETRIABLE_COMMIT or time.monotonic() > deadline:
                    raise failure(f"{self.url}: cannot read offsets of {group}", exc) from exc
            if time.monotonic() > deadline:
                raise LogUnreachable(f"{self.url}: offsets of {group}: coordinator not ready")
            await asyncio.sleep(0.1)
        out = dict.fromkeys(tps, 0)
        for topic, parts in response.topics:
            for partition, offset, *_ in parts:
                tp = (topic.removeprefix(self.prefix), partition)
                if tp in out and offset >= 0:
                    out[tp] = int(offset)
        return out

    async def positions(self, topics: Sequence[str], groups: Sequence[str]) -> Positions:
        tps: list[TP] = []
        for topic in topics:
            tps += [(topic, p) for p in range(await self.partitions(topic))]
        assert self._reader is not None
        try:
            raw = await self._reader.end_offsets(
                [TopicPartition(self.physical_topic(t), p) for t, p in tps]
            )
        except KafkaError as exc:
            raise failure(f"{self.url}: cannot read end offsets", exc) from exc
        ends = {(k.topic.removeprefix(self.prefix), k.partition): int(v) for k, v in raw.items()}
        committed = {g: await self._fetch_committed(g, tps) for g in groups}
        return Positions(ends=ends, committed=committed)

    async def commit(self, group: str, offsets: Mapping[TP, int]) -> None:
        await self.apply(Transaction(commits={group: dict(offsets)}))

    async def _commit(self, group: str, offsets: Mapping[TP, int]) -> None:
        admin = await self._start()
        by_topic: dict[str, list[tuple[int, int, str]]] = {}
        for (topic, partition), offset in offsets.items():
            by_topic.setdefault(self.physical_topic(topic), []).append((partition, offset, ""))
        request = OffsetCommitRequest(
            self.physical_group(group),
            OffsetCommitRequest.DEFAULT_GENERATION_ID,
            "",
            OffsetCommitRequest.DEFAULT_RETENTION_TIME,
            list(by_topic.items()),
        )
        deadline = time.monotonic() + self._timeout_s
        while True:
            try:
                node = await admin.find_coordinator(self.physical_group(group))
                response = await admin._send_request_to_node(node, request)
            except KafkaError as exc:
                # an ACL refusal (group or topic) is final: no retry until the deadline
                if time.monotonic() > deadline or broker_code(exc) in _NOT_AUTHORIZED:
                    raise failure(f"{self.url}: commit of {group} failed", exc) from exc
                await asyncio.sleep(0.1)
                continue
            codes = {code for _t, parts in response.topics for _p, code in parts}
            if not codes - {0}:
                return
            if codes & _RETRIABLE_COMMIT and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                continue
            worst = next(c for c in codes if c)
            raise EventLogError(
                f"{self.url}: commit of {group} refused: {for_code(worst).__name__}"
            )

    async def compact(self, topic: str) -> int:
        """The broker compacts (and expires) in the background; nothing to do here."""
        await self._topic(topic)
        return 0

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with self._start_lock:
            for stop in (
                self._reader.stop if self._reader else None,
                self._producer.stop if self._producer else None,
                self._admin.close if self._admin else None,
            ):
                if stop is not None:
                    with contextlib.suppress(Exception):
                        await stop()


def _over_budget(records: list[StoredRecord], max_bytes: int | None) -> bool:
    """Whether a read already holds max_bytes of values (it stops fetching then)."""
    return max_bytes is not None and sum(len(r.value or b"") for r in records) >= max_bytes
