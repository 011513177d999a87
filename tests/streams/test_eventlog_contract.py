"""The EventLog contract, run here against the embedded backends (memory://, sqlite:///) and by
tests/kafka/test_kafka_eventlog_contract.py against kafka:// on a real broker.

Kafka compacts and expires in the broker, in the background, on closed segments, and does not
hold tombstones for lagging groups: the tests taking the plain `log` fixture state what holds on
every backend (the Kafka module runs those), and the exact compaction results of the embedded
backends (`EMBEDDED`) are tested on those alone; tests/kafka/ tests the broker's own compaction
of our topics."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from schemas.topics import FILES, TopicSpec, partition_for
from streams.errors import EventLogError, UnknownTopicError
from streams.eventlog import compaction
from streams.eventlog.base import EventLog, LogRecord, StoredRecord, Transaction
from streams.eventlog.factory import open_event_log
from streams.eventlog.kafka import KafkaEventLog
from streams.eventlog.sqlite import SqliteEventLog

KV = TopicSpec(name="t.kv", key="repoId/path", partitions=3, cleanup="compact")
ONE = TopicSpec(name="t.one", key="repoId/path", partitions=1, cleanup="compact")
EVENTS = TopicSpec(name="t.events", key="repoId", cleanup="delete", retention_ms=1000)
EMBEDDED = ["memory", "sqlite"]  # compaction is exact and synchronous on these
CONTRACT_TOPICS = [KV, ONE, EVENTS, FILES]
# the long runs (10,000 saves, 60 hypothesis cases) on SQLite's disk are `slow`; memory:// stays
SQLITE_SLOW = ["memory", pytest.param("sqlite", marks=pytest.mark.slow)]
pytestmark = pytest.mark.anyio


class FakeClock:
    """Milliseconds that only move when a test says so."""

    def __init__(self, now: int = 1_000_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def make_log(kind: str, directory: Path, **opts: Any) -> EventLog:
    if kind == "memory":
        return open_event_log("memory://", **opts)
    return open_event_log(f"sqlite:///{directory / 'log.db'}", **opts)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=EMBEDDED)
async def log(
    request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock
) -> AsyncIterator[EventLog]:
    el = make_log(request.param, tmp_path, tombstone_retention_ms=0, clock=clock)
    await el.create_topics(CONTRACT_TOPICS)
    yield el
    await el.close()


async def read_all(log: EventLog, topic: str, partition: int = 0) -> list[StoredRecord]:
    out: list[StoredRecord] = []
    while batch := await log.read(topic, partition, out[-1].offset + 1 if out else 0, 200):
        out.extend(batch)
    return out


async def wait_until(cond: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not await cond():
        assert time.monotonic() < deadline, "condition not met before the deadline"
        await asyncio.sleep(0.01)


def rec(key: str | None, value: bytes | None, ts: int | None = None) -> LogRecord:
    return LogRecord(key=key, value=value, timestamp_ms=ts)


async def test_append_returns_increasing_offsets_per_partition(log: EventLog) -> None:
    keys = [f"repo{i % 5}/f{i}" for i in range(40)]
    placed = await log.append(KV.name, [rec(k, b"v") for k in keys])
    placed += await log.append(KV.name, [rec(k, b"w") for k in keys])
    per_partition: dict[int, list[int]] = {}
    for key, (p, off) in zip(keys + keys, placed, strict=True):
        assert p == partition_for(key, KV.partitions)
        per_partition.setdefault(p, []).append(off)
    for p, offsets in per_partition.items():
        assert offsets == list(range(len(offsets)))
        assert await log.end_offset(KV.name, p) == len(offsets)


async def test_read_from_offset_in_order_with_max_records(log: EventLog) -> None:
    await log.append(ONE.name, [rec(f"r/{i}", str(i).encode(), ts=i) for i in range(10)])
    got = await log.read(ONE.name, 0, 3, max_records=4)
    assert [(r.offset, r.key, r.value, r.timestamp_ms) for r in got] == [
        (i, f"r/{i}", str(i).encode(), i) for i in range(3, 7)
    ]
    assert all(r.topic == ONE.name and r.partition == 0 for r in got)
    assert [r.offset for r in await log.read(ONE.name, 0, 8)] == [8, 9]
    assert await log.read(ONE.name, 0, 10) == []


async def test_read_stops_at_max_bytes_but_always_returns_one(log: EventLog) -> None:
    sizes = [400, 300, 500, 2000, 100]
    await log.append(ONE.name, [rec(f"r/{i}", b"x" * n) for i, n in enumerate(sizes)])
    offsets = [r.offset for r in await log.read(ONE.name, 0, 0, 10, max_bytes=1200)]
    assert offsets == [0, 1, 2]  # 1200 bytes; the fourth would make 3200
    assert [r.offset for r in await log.read(ONE.name, 0, 0, 2, max_bytes=10_000)] == [0, 1]
    # a record larger than the budget still comes back alone: a reader always advances
    assert [r.offset for r in await log.read(ONE.name, 0, 3, 10, max_bytes=1000)] == [3]
    assert [r.offset for r in await log.read(ONE.name, 0, 3, 10)] == [3, 4]


async def test_routing_is_stable_by_repo_prefix(log: EventLog) -> None:
    repos = [f"repo-{i}" for i in range(12)]
    placed = await log.append(FILES.name, [rec(f"{r}/src/a.py", b"1") for r in repos])
    again = await log.append(FILES.name, [rec(f"{r}/deep/dir/b.py", b"2") for r in repos])
    assert [p for p, _ in placed] == [p for p, _ in again]
    assert [p for p, _ in placed] == [partition_for(r, FILES.partitions) for r in repos]
    assert len({p for p, _ in placed}) > 1  # repositories do spread over partitions
    assert (await log.append(FILES.name, [rec(None, b"x")]))[0][0] == 0


async def test_committed_offsets_per_group(log: EventLog) -> None:
    assert await log.committed("g1", KV.name, 0) == 0
    await log.commit("g1", {(KV.name, 0): 5, (KV.name, 2): 7})
    await log.commit("g2", {(KV.name, 0): 1})
    assert await log.committed("g1", KV.name, 0) == 5
    assert await log.committed("g1", KV.name, 2) == 7
    assert await log.committed("g1", KV.name, 1) == 0
    assert await log.committed("g2", KV.name, 0) == 1
    await log.commit("g1", {(KV.name, 0): 6})
    assert await log.committed("g1", KV.name, 0) == 6
    with pytest.raises(EventLogError):
        await log.commit("g1", {(KV.name, 9): 1})
    with pytest.raises(UnknownTopicError):
        await log.commit("g1", {("nope", 0): 1})


async def test_apply_appends_and_commits_together(log: EventLog) -> None:
    tx = Transaction()
    tx.append(ONE.name, rec("r/a", b"1"))
    tx.append(EVENTS.name, rec("r", b"cmd"))
    tx.commit("step", EVENTS.name, 0, 3)
    assert await log.apply(tx) == [(0, 0), (0, 0)]
    assert await log.committed("step", EVENTS.name, 0) == 3
    assert [r.value for r in await read_all(log, ONE.name)] == [b"1"]


async def test_apply_is_atomic(log: EventLog) -> None:
    await log.append(ONE.name, [rec("r/a", b"1")])
    await log.commit("step", {(ONE.name, 0): 1})
    tx = Transaction()
    tx.append(ONE.name, rec("r/b", b"2"))
    tx.commit("step", ONE.name, 0, 2)
    tx.append("not-a-topic", rec("r/c", b"3"))
    with pytest.raises(UnknownTopicError):
        await log.apply(tx)
    assert [r.key for r in await read_all(log, ONE.name)] == ["r/a"]
    assert await log.end_offset(ONE.name, 0) == 1
    assert await log.committed("step", ONE.name, 0) == 1
    assert (await log.append(ONE.name, [rec("r/d", b"4")])) == [(0, 1)]


async def test_unknown_topic_and_bad_arguments(log: EventLog) -> None:
    for call in (
        log.append("nope", [rec("k", b"v")]),
        log.read("nope", 0, 0),
        log.partitions("nope"),
        log.end_offset("nope", 0),
        log.compact("nope"),
    ):
        with pytest.raises(UnknownTopicError):
            await call
    with pytest.raises(EventLogError):
        await log.read(KV.name, 3, 0)
    with pytest.raises(EventLogError):
        await log.append(ONE.name, [LogRecord("k", "text")])  # type: ignore[arg-type]
    with pytest.raises(EventLogError):
        await log.commit("g", {(ONE.name, 0): -1})
    assert await log.end_offset(ONE.name, 0) == 0


async def test_create_topics_idempotent_and_mismatch(log: EventLog) -> None:
    await log.create_topics([KV, ONE])
    assert await log.partitions(KV.name) == 3
    with pytest.raises(EventLogError, match="partitions 3 != requested 4"):
        await log.create_topics([KV.model_copy(update={"partitions": 4})])
    with pytest.raises(EventLogError, match="cleanup 'compact' != requested 'delete'"):
        await log.create_topics([KV.model_copy(update={"cleanup": "delete"})])
    await log.create_topics([EVENTS.model_copy(update={"retention_ms": 5000})])  # may change
    assert await log.partitions(KV.name) == 3


COMPACTABLE = [
    [rec("r/a", b"a1"), rec("r/b", b"b1"), rec(None, b"n1")],
    [rec("r/a", b"a2"), rec("r/c", b"c1"), rec("r/a", b"a3")],
    [rec("r/b", b"b2"), rec(None, b"n2")],
]


async def test_compaction_keeps_the_fold_and_offsets(log: EventLog) -> None:
    """On every backend: compact() never changes what a reader folds, an offset, the end
    offset, or a keyless record; whatever it removed was superseded."""
    appended: dict[int, tuple[str | None, bytes | None]] = {}
    for batch in COMPACTABLE:
        for (_, off), r in zip(await log.append(ONE.name, batch), batch, strict=True):
            appended[off] = (r.key, r.value)
    removed = await log.compact(ONE.name)
    got = await read_all(log, ONE.name)
    assert all(appended[r.offset] == (r.key, r.value) for r in got)
    assert len(got) + removed == len(appended) or removed == 0  # 0: the broker cleans later
    assert fold([(r.key, r.value) for r in got]) == {"r/a": b"a3", "r/b": b"b2", "r/c": b"c1"}
    assert [(r.offset, r.value) for r in got if r.key is None] == [(2, b"n1"), (7, b"n2")]
    assert await log.end_offset(ONE.name, 0) == 8
    assert (await log.append(ONE.name, [rec("r/a", b"a4")])) == [(0, 8)]


@pytest.mark.parametrize("log", EMBEDDED, indirect=True)
async def test_compaction_keeps_newest_per_key_and_offsets(log: EventLog) -> None:
    for batch in COMPACTABLE:
        await log.append(ONE.name, batch)
    assert await log.compact(ONE.name) == 3
    got = [(r.offset, r.key, r.value) for r in await read_all(log, ONE.name)]
    assert got == [
        (2, None, b"n1"),
        (4, "r/c", b"c1"),
        (5, "r/a", b"a3"),
        (6, "r/b", b"b2"),
        (7, None, b"n2"),
    ]
    assert [r.offset for r in await log.read(ONE.name, 0, 3, 2)] == [4, 5]  # across the gap
    assert await log.end_offset(ONE.name, 0) == 8
    assert await log.compact(ONE.name) == 0
    assert (await log.append(ONE.name, [rec("r/a", b"a4")])) == [(0, 8)]


@pytest.mark.parametrize("log", EMBEDDED, indirect=True)  # Kafka: delete.retention.ms only
async def test_tombstones_wait_for_every_group(log: EventLog) -> None:
    await log.append(ONE.name, [rec("r/a", b"1"), rec("r/b", b"1"), rec("r/a", None)])
    await log.commit("fast", {(ONE.name, 0): 3})
    await log.commit("slow", {(ONE.name, 0): 1})
    assert await log.compact(ONE.name) == 1  # only the superseded r/a
    assert [r.offset for r in await read_all(log, ONE.name)] == [1, 2]
    await log.commit("slow", {(ONE.name, 0): 2})
    await log.compact(ONE.name)
    assert [r.offset for r in await read_all(log, ONE.name)] == [1, 2]  # not past it yet
    await log.commit("slow", {(ONE.name, 0): 3})
    assert await log.compact(ONE.name) == 1
    assert [(r.offset, r.key) for r in await read_all(log, ONE.name)] == [(1, "r/b")]
    assert await log.end_offset(ONE.name, 0) == 3


@pytest.mark.parametrize("kind", EMBEDDED)  # Kafka's cleaner runs on the broker's clock
async def test_tombstone_retention(kind: str, tmp_path: Path, clock: FakeClock) -> None:
    async with make_log(kind, tmp_path, tombstone_retention_ms=5000, clock=clock) as log:
        await log.create_topics([ONE])
        await log.append(ONE.name, [rec("r/a", b"1"), rec("r/a", None)])
        await log.commit("g", {(ONE.name, 0): 2})
        assert await log.compact(ONE.name) == 1
        clock.now += 4999
        assert await log.compact(ONE.name) == 0
        clock.now += 1
        assert await log.compact(ONE.name) == 1
        assert await read_all(log, ONE.name) == []


async def test_delete_topics_never_compact_by_key(log: EventLog) -> None:
    await log.append(EVENTS.name, [rec("r", b"1"), rec("r", b"2"), rec(None, b"3")])
    assert await log.compact(EVENTS.name) == 0  # nothing is older than the retention yet
    assert [r.value for r in await read_all(log, EVENTS.name)] == [b"1", b"2", b"3"]


@pytest.mark.parametrize("log", EMBEDDED, indirect=True)  # Kafka expires on its own clock
async def test_delete_topic_retention(log: EventLog, clock: FakeClock) -> None:
    old, new = clock.now - 1000, clock.now - 999
    await log.append(EVENTS.name, [rec("r", b"1", ts=old), rec("r", b"2", ts=new)])
    await log.append(EVENTS.name, [rec("r", b"3", ts=old), rec("r", b"4")])
    assert await log.compact(EVENTS.name) == 2
    got = [(r.offset, r.value) for r in await read_all(log, EVENTS.name)]
    assert got == [(1, b"2"), (3, b"4")]  # same key kept: delete topics do not compact
    clock.now += 10_000
    assert await log.compact(EVENTS.name) == 2
    assert await read_all(log, EVENTS.name) == []
    assert await log.end_offset(EVENTS.name, 0) == 4


async def test_instance_id_and_close(log: EventLog, tmp_path: Path) -> None:
    instance_id = getattr(log, "instance_id", "")
    assert len(instance_id) == 32
    other = make_log("memory", tmp_path)
    assert getattr(other, "instance_id", "") not in ("", instance_id)
    await other.close()
    await log.close()
    await log.close()  # idempotent (the fixture closes it once more)
    with pytest.raises(EventLogError, match="closed"):
        await log.end_offset(ONE.name, 0)


@pytest.mark.parametrize("kind", SQLITE_SLOW)  # Kafka: tests/kafka/test_kafka_log.py
async def test_ten_thousand_saves_stay_bounded(kind: str, tmp_path: Path) -> None:
    """A watcher saving one file 10,000 times must not grow the log without bound."""
    body = bytes(range(256)) * 16  # 4 KiB: 40 MiB if nothing were compacted
    async with make_log(kind, tmp_path) as log:
        await log.create_topics([FILES])
        others = [f"repo/other{i}.py" for i in range(5)]
        part = partition_for("repo/hot.py", FILES.partitions)
        await log.append(FILES.name, [rec(k, b"other") for k in others])

        async def bounded() -> bool:
            return len(await read_all(log, FILES.name, part)) < 2_000

        for i in range(10_000):
            await log.append(FILES.name, [rec("repo/hot.py", body + str(i).encode())])
            if i % 2500 == 2499:
                await wait_until(bounded)
        await wait_until(bounded)
        live = {r.key: r.value for r in await read_all(log, FILES.name, part)}
        assert live["repo/hot.py"] == body + b"9999"
        assert all(live[k] == b"other" for k in others)
        if isinstance(log, SqliteEventLog):
            size = sum(f.stat().st_size for f in tmp_path.iterdir())
            assert size < 16 * 2**20, f"log files take {size} bytes"


def test_factory_urls(tmp_path: Path) -> None:
    kafka = open_event_log("kafka://localhost:9092,localhost:9093?prefix=p.&replication_factor=3")
    assert isinstance(kafka, KafkaEventLog)  # connects on first use
    assert (kafka.bootstrap, kafka.prefix, kafka.replication_factor) == (
        "localhost:9092,localhost:9093",
        "p.",
        3,
    )
    asyncio.run(kafka.close())
    with pytest.raises(EventLogError, match="unknown option"):
        open_event_log("kafka://localhost:9092?partitions=3")
    with pytest.raises(EventLogError, match="expected kafka://host:port"):
        open_event_log("kafka://")
    with pytest.raises(EventLogError, match=r"supported schemes: memory://, sqlite:///"):
        open_event_log("postgres://x")
    with pytest.raises(EventLogError):
        open_event_log("sqlite:///")


# -- property: compaction never changes what a reader folds ------------------------------------
KEYS = [*(f"r{i % 6}/f{i}" for i in range(12)), None]  # both partitions get keys
KINDS = ["put"] * 5 + ["del"] * 3 + ["compact", "commit"]  # sampled_from weights by repeats
Op = tuple[str, Any, bytes | None]


def make_op(kind: str, key: str | None, value: bytes, group: str) -> Op:
    return {
        "put": ("put", key, value),
        "del": ("del", key, None),
        "compact": ("compact", None, None),
        "commit": ("commit", group, None),
    }[kind]


OPS = st.lists(
    st.builds(
        make_op,
        st.sampled_from(KINDS),
        st.sampled_from(KEYS),
        st.binary(max_size=3),
        st.sampled_from(["g1", "g2"]),
    ),
    min_size=4,
    max_size=60,
)
TWO = TopicSpec(name="t.two", key="repoId/path", partitions=2, cleanup="compact")


def fold(records: list[tuple[str | None, bytes | None]]) -> dict[str, bytes]:
    state: dict[str, bytes] = {}
    for key, value in records:
        if key is None:
            continue
        if value is None:
            state.pop(key, None)
        else:
            state[key] = value
    return state


async def compaction_scenario(log: EventLog, ops: list[Op]) -> None:
    await log.create_topics([TWO])
    appended: dict[tuple[int, int], tuple[str | None, bytes | None]] = {}

    async def commit_all(group: str) -> None:
        await log.commit(
            group, {(TWO.name, p): await log.end_offset(TWO.name, p) for p in range(2)}
        )

    async def survivors() -> list[tuple[str | None, bytes | None]]:
        await log.compact(TWO.name)
        out = []
        for p in range(2):
            for r in await read_all(log, TWO.name, p):
                assert appended[(p, r.offset)] == (r.key, r.value)  # offsets never change
                out.append((r.key, r.value))
        everything = [appended[k] for k in sorted(appended)]
        assert fold(out) == fold(everything)
        assert [s for s in out if s[0] is None] == [e for e in everything if e[0] is None]
        return out

    for op, arg, value in ops:
        if op in ("put", "del"):
            ((p, off),) = await log.append(TWO.name, [rec(arg, value)])
            appended[(p, off)] = (arg, value)
        elif op == "compact":
            await log.compact(TWO.name)
        else:
            await commit_all(arg)
    await survivors()
    await commit_all("g1")
    await commit_all("g2")
    final = await survivors()  # every group is past everything: one live record per key
    keyed = [k for k, _ in final if k is not None]
    assert len(keyed) == len(set(keyed)) and all(v is not None for k, v in final if k)


@pytest.mark.parametrize("kind", SQLITE_SLOW)  # the compaction algorithm; Kafka's is the broker's
@settings(max_examples=60, deadline=None)
@given(ops=OPS, threshold=st.sampled_from([3, 1000]))  # background compaction or none
@example(  # a tombstone must not go before an older version in a later chunk is gone
    ops=[
        ("put", "r0/f0", b"1"),
        ("put", "r0/f3", b"1"),
        ("put", "r0/f6", b"1"),
        ("del", "r0/f6", None),
    ],
    threshold=1000,
)
def test_compaction_preserves_the_fold(kind: str, ops: list[Op], threshold: int) -> None:
    async def run() -> None:
        # tiny SQLite compaction steps, so chunking and batched deletes are exercised too
        with (
            tempfile.TemporaryDirectory() as d,
            patch.object(compaction, "CHUNK_OFFSETS", 1),
            patch.object(compaction, "DELETE_BATCH", 1),
        ):
            log = make_log(kind, Path(d), tombstone_retention_ms=0, compact_threshold=threshold)
            try:
                await compaction_scenario(log, ops)
            finally:
                await log.close()

    asyncio.run(run())


async def test_positions_match_end_and_committed_offsets(log: EventLog) -> None:
    await log.append(KV.name, [rec(f"r{n}/f", b"v") for n in range(9)])
    await log.append(ONE.name, [rec("a/b", b"1"), rec("a/b", b"2")])
    await log.commit("g1", {(KV.name, 0): 1, (ONE.name, 0): 2})
    got = await log.positions([KV.name, ONE.name], ["g1", "g2"])
    for topic, partitions in ((KV.name, 3), (ONE.name, 1)):
        for p in range(partitions):
            assert got.ends[(topic, p)] == await log.end_offset(topic, p)
            for group in ("g1", "g2"):
                assert got.committed[group][(topic, p)] == await log.committed(group, topic, p)
    assert got.committed["g1"][(ONE.name, 0)] == 2
    assert got.committed["g2"][(KV.name, 0)] == 0
