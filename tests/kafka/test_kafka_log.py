"""What only the kafka:// backend does, on the session's real broker (tests/kafka/broker.py).

The shared EventLog contract runs in tests/streams/test_eventlog_contract.py; here: topic
provisioning from the catalogue as the broker sees it, mismatch errors against topics made by
someone else, the broker's own compaction of our topics, and the CLI pipeline on Kafka.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from schemas.topics import CATALOGUE, FILES, MEMORY, TopicSpec
from streams.errors import EventLogError
from streams.eventlog.base import LogRecord, StoredRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.conftest import child_env, cli_command
from tests.kafka.broker import KafkaBroker

pytestmark = pytest.mark.anyio


def prefix() -> str:
    return f"k{uuid.uuid4().hex[:12]}."


@pytest.fixture
async def admin(kafka_broker: KafkaBroker) -> AsyncIterator[AIOKafkaAdminClient]:
    client = AIOKafkaAdminClient(bootstrap_servers=kafka_broker.bootstrap)
    await client.start()
    yield client
    await client.close()


async def broker_config(admin: AIOKafkaAdminClient, topic: str) -> dict[str, str]:
    (response,) = await admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)])
    ((_, _, _, _, entries, *_),) = response.resources
    return {e[0]: e[1] for e in entries}


async def read_all(log: KafkaEventLog, topic: str, partition: int = 0) -> list[StoredRecord]:
    out: list[StoredRecord] = []
    while batch := await log.read(topic, partition, out[-1].offset + 1 if out else 0, 500):
        out.extend(batch)
    return out


async def test_catalogue_is_provisioned_as_written(
    kafka_broker: KafkaBroker, admin: AIOKafkaAdminClient
) -> None:
    p = prefix()
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix={p}")
    async with log:
        await log.create_topics(CATALOGUE)
        await log.create_topics(CATALOGUE)  # idempotent
        described = {
            t["topic"]: len(t["partitions"])
            for t in await admin.describe_topics([p + s.name for s in CATALOGUE])
        }
        for spec in CATALOGUE:
            assert described[p + spec.name] == spec.partitions
            config = await broker_config(admin, p + spec.name)
            assert config["cleanup.policy"] == spec.cleanup
            want = spec.retention_ms if spec.cleanup == "delete" and spec.retention_ms else -1
            assert int(config["retention.ms"]) == want, spec.name
        assert (await broker_config(admin, p + MEMORY.name))["retention.ms"] == "-1"
        assert log.instance_id and len(log.instance_id) == 32


async def test_a_differing_existing_topic_is_an_error(
    kafka_broker: KafkaBroker, admin: AIOKafkaAdminClient
) -> None:
    p = prefix()
    other = TopicSpec(name="t.other", key="k", partitions=1, cleanup="compact")
    await admin.create_topics(
        [
            NewTopic(p + FILES.name, 2, 1, topic_configs={"cleanup.policy": "delete"}),
            NewTopic(p + other.name, 1, 1, topic_configs={"cleanup.policy": "compact,delete"}),
        ]
    )
    async with KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix={p}") as log:
        with pytest.raises(
            EventLogError,
            match=r"topic repocontext.files.v1 exists with partitions 2 != requested 6, "
            r"cleanup 'delete' != requested 'compact'",
        ):
            await log.create_topics([FILES])
        with pytest.raises(EventLogError, match="cleanup 'compact,delete' != requested 'compact'"):
            await log.create_topics([other])
    async with KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix={p}") as log:
        with pytest.raises(EventLogError):  # a fresh client sees the same conflict
            await log.create_topics([other])
        assert await log.partitions(FILES.name) == 2  # never silently changed


async def test_the_broker_compacts_our_topics(kafka_broker: KafkaBroker) -> None:
    """The log cleaner keeps the newest record per key; keyless records (encoded with unique
    keys) and offsets survive. Segments roll every 100 ms so the cleaner can reach them."""
    fast = {"segment.ms": "100", "min.cleanable.dirty.ratio": "0.01", "min.compaction.lag.ms": "0"}
    one = TopicSpec(name="t.one", key="repoId/path", partitions=1, cleanup="compact")
    url = f"kafka://{kafka_broker.bootstrap}?prefix={prefix()}"
    log = KafkaEventLog(url, topic_configs=fast, tombstone_retention_ms=0)
    async with log:
        await log.create_topics([one])
        appended: dict[int, tuple[str | None, bytes | None]] = {}

        async def put(key: str | None, value: bytes | None) -> None:
            ((_, off),) = await log.append(one.name, [LogRecord(key, value)])
            appended[off] = (key, value)

        for i in range(50):
            await put("r/hot", b"v%d" % i)
        await put(None, b"keyless")
        await put("r/gone", b"x")
        await put("r/gone", None)

        deadline = time.monotonic() + 90
        while True:  # each tick may roll the segment; the cleaner then compacts the old ones
            await put("r/tick", b"t")
            got = await read_all(log, one.name)
            if sum(1 for r in got if r.key == "r/hot") == 1:
                break
            assert time.monotonic() < deadline, "the broker did not compact within 90 s"
            await asyncio.sleep(0.2)
        for r in got:
            assert appended[r.offset] == (r.key, r.value)  # offsets never change
        live = {r.key: r.value for r in got if r.key is not None}
        assert live["r/hot"] == b"v49" and live.get("r/gone") is None
        assert [r.value for r in got if r.key is None] == [b"keyless"]
        assert await log.end_offset(one.name, 0) == max(appended) + 1


def run_cli(env: dict[str, str], *args: str) -> Any:
    proc = subprocess.run(cli_command(*args), env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_the_cli_pipeline_on_kafka_matches_sqlite(
    kafka_broker: KafkaBroker, sample_repo: Path, tmp_path: Path
) -> None:
    """`index`, `search`, `topics`, `replay` with REPOCONTEXT_LOG_URL=kafka://: same answers."""
    kafka_env = child_env(tmp_path / "kafka-data")
    kafka_env["REPOCONTEXT_LOG_URL"] = f"kafka://{kafka_broker.bootstrap}?prefix={prefix()}"
    sqlite_env = child_env(tmp_path / "sqlite-data")
    answers = []
    for env in (kafka_env, sqlite_env):
        env["REPOCONTEXT_EMBEDDER"] = "none"  # the keyword plane: vectors arrive on their own time
        indexed = run_cli(env, "index", str(sample_repo))
        assert indexed["status"] == "Completed" and indexed["filesIndexed"] == 7
        found = run_cli(env, "search", str(sample_repo), "InvoiceCalculator")
        answers.append([(h["entry"]["path"], h["score"]) for h in found["hits"]])
    assert answers[0] == answers[1] and answers[0][0][0] == "src/billing/invoice.py"
    topics = {t["name"]: t for t in run_cli(kafka_env, "topics")}
    assert sum(topics[FILES.name]["endOffsets"]) >= 7
    # replay: drop the views, re-consume the topics from the start: the same answers
    replayed = run_cli(kafka_env, "replay")
    assert replayed["repositories"] == ["sample"] and replayed["files"] == 7
    found = run_cli(kafka_env, "search", str(sample_repo), "InvoiceCalculator")
    assert [(h["entry"]["path"], h["score"]) for h in found["hits"]] == answers[0]


async def test_records_and_offsets_survive_a_broker_restart(kafka_broker: KafkaBroker) -> None:
    """Stop the broker (SIGTERM) and start it on the same storage: the same client carries on
    with every record and committed offset intact. Runs last here: it restarts the broker."""
    one = TopicSpec(name="t.one", key="repoId/path", partitions=1, cleanup="compact")
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix={prefix()}")
    async with log:
        await log.create_topics([one])
        await log.append(one.name, [LogRecord(f"r/{i}", b"%d" % i) for i in range(20)])
        await log.commit("g", {(one.name, 0): 12})
        await asyncio.to_thread(kafka_broker.stop)
        await asyncio.to_thread(kafka_broker.launch)
        assert [r.offset for r in await read_all(log, one.name)] == list(range(20))
        assert await log.committed("g", one.name, 0) == 12
        assert await log.append(one.name, [LogRecord("r/new", b"x")]) == [(0, 20)]
