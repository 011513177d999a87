"""Restart the broker under a running worker and query replica: both resume, nothing is lost.

A broker of its own (restarting the session's would disturb the other Kafka tests): events
before the restart are served, the broker goes down and comes back on the same ports and
storage, events appended afterwards reach the replica's answers too.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from schemas import codec
from schemas.events import RepoRegistration, file_key
from schemas.topics import CATALOGUE, FILES, REPOS, STRUCTURE
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_worker import Replica, Worker, caught_up, fold, read_all, upsert

pytestmark = pytest.mark.anyio


@pytest.fixture
def own_broker(tmp_path: Path) -> Iterator[KafkaBroker]:
    broker = KafkaBroker(tmp_path / "kafka")
    try:
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        yield broker
    finally:
        broker.stop()


async def test_worker_and_replica_resume_after_a_broker_restart(
    own_broker: KafkaBroker, tmp_path: Path
) -> None:
    url = f"kafka://{own_broker.bootstrap}?prefix=r{uuid.uuid4().hex[:8]}."
    log = KafkaEventLog(url)
    await log.create_topics(CATALOGUE)
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await log.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    before = {f"src/before{i}.py": f"def restart_before_{i}():\n    pass\n" for i in range(10)}
    after = {f"src/after{i}.py": f"def restart_after_{i}():\n    pass\n" for i in range(10)}
    await log.append(FILES.name, [upsert(p, b) for p, b in before.items()])
    worker, replica = Worker(log, tmp_path), Replica(log, tmp_path)
    try:
        await replica.wait_live()

        async def serves(symbol: str, path: str) -> Any:
            async with http_session(replica.base) as session:
                args = {"repoId": "demo", "query": symbol}
                result = await call(session, "repocontext_search", args)
                return [h["entry"]["path"] for h in result["hits"]][:1] == [path]

        await wait_for(lambda: serves("restart_before_3", "src/before3.py"), 60.0, "before")
        await log.close()
        own_broker.stop()
        own_broker.launch()  # same ports, same storage
        log = KafkaEventLog(url)
        await log.append(FILES.name, [upsert(p, b) for p, b in after.items()])
        await caught_up(log, worker, timeout=60.0)
        await wait_for(lambda: serves("restart_after_7", "src/after7.py"), 60.0, "after")
        structure = fold(await read_all(log, STRUCTURE.name))
        assert set(structure) == {file_key("demo", p) for p in (*before, *after)}
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
        assert worker.stop() == 0, worker.out.read_text()[-3000:]
        await log.close()
