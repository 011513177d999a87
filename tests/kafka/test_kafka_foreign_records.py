"""Records no writer of ours makes, and batches that cannot be produced, on the real broker.

A record whose key is not UTF-8 (put on a topic by hand, or by a foreign producer) failed the
read that met it: the worker's steps retried that batch for good and the replica's view sink
failed every pass, so nothing behind it in its partition was ever processed and every replica
went unready. It is a dead letter now, and the partition goes on. A worker whose batch cannot
be produced (an output topic deleted under it) ignored SIGTERM for good: faust's stop waited
for the unacked batch to be acked. It stops within the documented bound now.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient

from schemas import codec
from schemas.events import RepoRegistration, file_key
from schemas.topics import DEADLETTER, FILES, REPOS, STRUCTURE, partition_for
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.test_kafka_worker import (
    STEPS,
    Replica,
    Worker,
    caught_up,
    fold,
    klog,
    read_all,
    upsert,
)

pytestmark = pytest.mark.anyio
__all__ = ["klog"]  # the fixture, imported for this module's tests
NOT_UTF8 = b"\xfe\xfe garbled"


async def produce_raw(log: KafkaEventLog, topic: str, partition: int, value: bytes) -> None:
    """One record with a key that is not UTF-8, as a foreign producer would write it."""
    producer = AIOKafkaProducer(bootstrap_servers=log.bootstrap, acks="all")
    await producer.start()
    try:
        await producer.send_and_wait(
            log.physical_topic(topic), value, key=NOT_UTF8, partition=partition
        )
    finally:
        await producer.stop()


async def test_a_key_that_is_not_utf8_is_a_dead_letter_not_a_stalled_partition(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    partition = partition_for("demo", 6)
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    await klog.append(FILES.name, [upsert("before.py", "def garbled_before():\n    pass\n")])
    await produce_raw(klog, FILES.name, partition, upsert("x.py", "x = 1\n").value or b"")
    await produce_raw(klog, STRUCTURE.name, partition, b"{}")  # what the replica reads
    await klog.append(FILES.name, [upsert("after.py", "def garbled_after():\n    pass\n")])

    worker, replica = Worker(klog, tmp_path), Replica(klog, tmp_path)
    try:
        await caught_up(klog, worker)  # every step's group past the garbled record
        structure = fold(await read_all(klog, STRUCTURE.name))
        assert {file_key("demo", "before.py"), file_key("demo", "after.py")} <= set(structure)
        letters = [
            codec.decode(DEADLETTER.name, r.value) for r in await read_all(klog, DEADLETTER.name)
        ]
        by_step = {getattr(x, "step", None): getattr(x, "error_type", None) for x in letters}
        assert {s: by_step.get(s) for s in STEPS} == {s: "UndecodableKey" for s in STEPS}

        await replica.wait_live()
        async with http_session(replica.base) as session:

            async def found() -> dict[str, Any] | None:
                args = {"repoId": "demo", "query": "garbled_after"}
                result = await call(session, "repocontext_search", args)
                paths = [h["entry"]["path"] for h in result["hits"]]
                return result if paths[:1] == ["after.py"] else None

            await wait_for(found, 90.0, "the replica to apply what follows the garbled record")
        async with httpx.AsyncClient() as client:
            ready = await client.get(replica.base + "/health/ready")
        assert ready.status_code == 200, ready.text
        assert "UnicodeDecodeError" not in replica.out.read_text()
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
        assert worker.stop() == 0, worker.out.read_text()[-3000:]


async def test_a_worker_whose_batch_cannot_be_produced_stops_on_sigterm(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    worker = Worker(klog, tmp_path, ("structural",))
    try:
        await klog.append(FILES.name, [upsert("first.py", "x = 1\n")])
        await caught_up_step(klog, worker, "structural")
        admin = AIOKafkaAdminClient(bootstrap_servers=klog.bootstrap)
        await admin.start()
        try:  # the step's output topic goes: its next batch can never be produced
            await admin.delete_topics([klog.physical_topic(STRUCTURE.name)])
        finally:
            await admin.close()
        await klog.append(FILES.name, [upsert("second.py", "x = 2\n")])
        await asyncio.sleep(3)  # the batch is taken and its produce is failing
        started = time.monotonic()
        worker.proc.send_signal(signal.SIGTERM)
        rc = await asyncio.to_thread(worker.proc.wait, 40)
        assert rc == 0, worker.out.read_text()[-3000:]
        # the group is left within the 10 s bound; the exit can wait out the request timeout
        # (30 s) of a produce the Kafka client still holds
        assert time.monotonic() - started < 45
    finally:
        if worker.proc.poll() is None:
            worker.proc.kill()
            worker.proc.wait()


async def caught_up_step(log: KafkaEventLog, worker: Worker, step: str) -> None:
    """Wait until `step`'s group has committed the end of files.v1."""
    deadline = time.monotonic() + 90
    while (pos := await log.positions([FILES.name], [step])).committed[step] != pos.ends:
        assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
        assert time.monotonic() < deadline, f"{step} behind: {pos}"
        await asyncio.sleep(0.2)
