"""Reads survive the broker: with Kafka stopped, a caught-up query replica keeps answering
search from its SQLite views, /health/ready answers at once (no wait on the broker) and stays
ready, and freshness says the log is unreachable and since when; the replica logs the outage
once, not once per retry. The worker's /health/ready says not ready, naming the unreachable
log, and its log holds a few lines, no traceback. Once the broker is back the replica catches
up with what was written meanwhile, freshness says the log answers again, and the worker is
ready again. A git source polling meanwhile does the same as the worker (503 naming the
unreachable log, one line per outage, no traceback), and a commit made during the outage is
published once the broker is back.

A broker of its own: stopping the session's would disturb the other Kafka tests.
"""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import CATALOGUE, FILES, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.conftest import free_port
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_replica_ops import git_repository, spawn
from tests.kafka.test_kafka_worker import STEPS, Replica, Worker, upsert

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
# A client bound far above the 1 s the probes need and far below the 30 s a request waited on
# the broker before: a health or search call that waits on Kafka fails the test.
CLIENT_TIMEOUT_S = 10.0
# The worker's log lines over the whole test (start, outage, catch-up, stop): a few dozen at
# most once every state is logged once per change; per retry, they were thousands a minute.
WORKER_LOG_LINES_AT_MOST = 300
SOURCE_LOG_LINES_AT_MOST = 100  # the git source polls every second: per poll would be ~100+


@pytest.fixture
def own_broker(tmp_path: Path) -> Iterator[KafkaBroker]:
    broker = KafkaBroker(tmp_path / "kafka")
    try:
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        yield broker
    finally:
        broker.stop()


async def search_top(base: str, query: str) -> dict[str, Any]:
    async with http_session(base) as session:
        result: dict[str, Any] = await call(
            session, "repocontext_search", {"repoId": "demo", "query": query}
        )
        return result


async def ready(base: str) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(timeout=CLIENT_TIMEOUT_S) as client:
        response = await client.get(base + "/health/ready")
        body: dict[str, Any] = response.json()
        return response.status_code, body


async def test_a_replica_answers_from_its_views_while_the_broker_is_away(
    own_broker: KafkaBroker, tmp_path: Path
) -> None:
    url = f"kafka://{own_broker.bootstrap}?prefix=o{uuid.uuid4().hex[:8]}."
    log = KafkaEventLog(url)
    await log.create_topics(CATALOGUE)
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await log.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    before = {f"src/before{i}.py": f"def outage_before_{i}():\n    pass\n" for i in range(10)}
    after = {f"src/after{i}.py": f"def outage_after_{i}():\n    pass\n" for i in range(5)}
    await log.append(FILES.name, [upsert(p, b) for p, b in before.items()])
    worker_port = free_port()
    worker = Worker(log, tmp_path, STEPS, args=("--metrics-port", str(worker_port)))
    worker_base = f"http://127.0.0.1:{worker_port}"
    replica = Replica(log, tmp_path)
    source_port = free_port()
    work = tmp_path / "repo"
    source = spawn(
        tmp_path, log, "source", "git-source", git_repository(work), "--repo-id", "fromgit",
        "--ref", "main", "--refresh-s", "1", "--metrics-port", str(source_port),
    )  # fmt: skip
    source_base = f"http://127.0.0.1:{source_port}"

    async def top_is(query: str, path: str) -> dict[str, Any] | None:
        result = await search_top(replica.base, query)
        hits = [h["entry"]["path"] for h in result["hits"]]
        return result if hits[:1] == [path] else None

    try:
        await replica.wait_live()
        await wait_for(lambda: top_is("outage_before_3", "src/before3.py"), 90.0, "indexed")

        async def is_ready() -> bool:
            return (await ready(replica.base))[0] == 200

        await wait_for(is_ready, 60.0, "the caught-up replica to be ready")

        async def source_ready() -> bool:
            return (await ready(source_base))[0] == 200

        await wait_for(source_ready, 60.0, "the git source's first poll")
        await log.close()
        own_broker.stop()

        async def says_unreachable() -> tuple[int, dict[str, Any]] | None:
            status, body = await ready(replica.base)
            fresh = body.get("freshness") or {}
            return (status, body) if fresh.get("logReachable") is False else None

        status, body = await wait_for(says_unreachable, 60.0, "freshness to say unreachable")
        assert status == 200, body  # caught up when the broker left: stays in the Service
        assert body["freshness"]["logUnreachableSince"], body
        assert "unreachable" in body["components"]["log"], body
        # every tool still answers from the views, saying how fresh they are
        result = await top_is("outage_before_7", "src/before7.py")
        assert result is not None
        assert result["freshness"]["logReachable"] is False
        assert result["freshness"]["logUnreachableSince"]
        for _ in range(3):  # repeated probes answer too (none queues behind a broker request)
            assert (await ready(replica.base))[0] == 200

        async def worker_not_ready() -> dict[str, Any] | None:
            status, body = await ready(worker_base)
            reasons = " ".join(body.get("notReady") or [])
            return body if status == 503 and "unreachable" in reasons else None

        await wait_for(worker_not_ready, 60.0, "the worker to say the log is unreachable")

        async def source_not_ready() -> dict[str, Any] | None:
            status, body = await ready(source_base)
            reasons = " ".join(body.get("notReady") or [])
            return body if status == 503 and "unreachable" in reasons else None

        git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
        (work / "during.py").write_text("def committed_during_the_outage():\n    pass\n")
        subprocess.run([*git, "add", "."], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "during the outage"], check=True)
        await wait_for(source_not_ready, 60.0, "the git source to say the log is unreachable")

        own_broker.launch()  # same ports, same storage
        log = KafkaEventLog(url)
        await log.append(FILES.name, [upsert(p, b) for p, b in after.items()])
        result = await wait_for(lambda: top_is("outage_after_4", "src/after4.py"), 120.0, "after")

        async def reachable_again() -> bool:
            fresh = (await ready(replica.base))[1].get("freshness") or {}
            return fresh.get("logReachable") is True and fresh.get("eventsBehind") == 0

        await wait_for(reachable_again, 60.0, "freshness to say the log answers again")

        async def worker_ready() -> bool:
            return (await ready(worker_base))[0] == 200

        await wait_for(worker_ready, 60.0, "the worker to be ready again")
        await wait_for(source_ready, 60.0, "the git source to be ready again")

        async def commit_published() -> bool:
            async with http_session(replica.base) as session:
                args = {"repoId": "fromgit", "query": "committed_during_the_outage"}
                found = await call(session, "repocontext_search", args)
            return [h["entry"]["path"] for h in found["hits"]][:1] == ["during.py"]

        await wait_for(commit_published, 120.0, "the commit made during the outage to be served")
        out = replica.out.read_text()
        assert out.count("the event log is unreachable") == 1, out[-5000:]
        assert out.count("the event log answers again") == 1, out[-5000:]
        assert "Traceback" not in out, out[-5000:]
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        worker.stop(timeout=60)
        source.terminate()
        source.wait(timeout=60)
        await log.close()
    source_out = (tmp_path / "source.log").read_text()
    assert "Traceback" not in source_out, source_out[-5000:]
    assert len(source_out.splitlines()) <= SOURCE_LOG_LINES_AT_MOST, source_out[-5000:]
    worker_out = worker.out.read_text()
    assert "Traceback" not in worker_out, worker_out[-5000:]
    assert len(worker_out.splitlines()) <= WORKER_LOG_LINES_AT_MOST, worker_out[-5000:]
