"""A Kafka worker's batches are bounded by the bytes of their record values, not only by count.

In process, on the real broker: large file events wait in files.v1 before the step starts, so
faust's first take holds several of them; the step must still hand its processor no more than
its byte budget at once (one record alone when a single record is larger), and process all.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from schemas.topics import CATALOGUE, FILES, STRUCTURE
from streams.eventlog.kafka import KafkaEventLog
from streams.runtime.faust_app import FaustStep, processor_steps
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_worker import fold, read_all
from tests.log_records import upsert_record

pytestmark = [pytest.mark.anyio, pytest.mark.kafka]

BODY_CHARS = 256 * 1024  # each file's body: two fit in the budget below, three do not
BATCH_BYTES = 600 * 1024


@pytest.fixture
async def klog(kafka_broker: KafkaBroker) -> AsyncIterator[KafkaEventLog]:
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix=b{uuid.uuid4().hex[:12]}.")
    await log.create_topics(CATALOGUE)
    yield log
    await log.close()


async def test_a_take_of_large_files_is_handled_in_runs_bounded_by_bytes(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    paths = [f"big{i}.py" for i in range(8)]
    body = ("x = 1\n" * (BODY_CHARS // 6 + 1))[:BODY_CHARS]
    records = [upsert_record("demo", p, body) for p in paths]
    await klog.append(FILES.name, records)
    sizes = [len(r.value or b"") for r in records]
    assert 2 * max(sizes) <= BATCH_BYTES < 3 * min(sizes)

    [structural] = processor_steps(["structural"])
    step = FaustStep(klog, structural, tmp_path, batch_bytes=BATCH_BYTES)
    await step.start()
    try:
        deadline = time.monotonic() + 90
        while step.counters.processed < len(paths):
            assert not step.app.crashed, step.app.crash_reason
            assert time.monotonic() < deadline, vars(step.counters)
            await asyncio.sleep(0.1)
    finally:
        await step.stop()
    # the old worker handled the whole take (up to 256 events) in one processor call
    assert step.counters.largest_batch_bytes <= BATCH_BYTES, vars(step.counters)
    assert step.counters.batches >= len(paths) // 2
    assert set(fold(await read_all(klog, STRUCTURE.name))) == {r.key for r in records}
