"""`repocontext worker` on the real broker: processor steps as faust agents, a consumer group each.

Real processes, real broker: file events go into files.v1, workers turn them into structure
and content records, a poison event becomes a dead letter per step, a SIGKILLed worker
resumes to the same records, and SIGTERM ends a worker cleanly within a bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import time
import uuid
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiokafka.admin import AIOKafkaAdminClient

from schemas import codec
from schemas.events import RepoRegistration, file_key
from schemas.records import StructureRecord
from schemas.topics import CATALOGUE, CONTENT, DEADLETTER, FILES, REPOS, STRUCTURE
from streams.eventlog.base import LogRecord, StoredRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.conftest import child_env, cli_command, free_port
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.broker import KafkaBroker
from tests.log_records import upsert_record

pytestmark = pytest.mark.anyio
STEPS = ("structural", "content")


@pytest.fixture
async def klog(kafka_broker: KafkaBroker) -> AsyncIterator[KafkaEventLog]:
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix=w{uuid.uuid4().hex[:12]}.")
    await log.create_topics(CATALOGUE)  # provisioned before any worker starts
    yield log
    await log.close()


upsert = partial(upsert_record, "demo")  # this file's one repository


class Worker:
    """`repocontext worker` running `steps` (() = every processor step) as faust agents."""

    def __init__(
        self,
        log: KafkaEventLog,
        tmp: Path,
        steps: tuple[str, ...] = STEPS,
        *extra_env: tuple[str, str],
        args: tuple[str, ...] = (),
    ) -> None:
        env = child_env(tmp / "worker-data")
        env["REPOCONTEXT_LOG_URL"] = log.url
        env.update(extra_env)
        self.out = tmp / f"worker-{uuid.uuid4().hex[:6]}.log"
        with open(self.out, "wb") as sink:
            self.proc = subprocess.Popen(
                cli_command("worker", *(a for s in steps for a in ("--step", s)), *args),
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=timeout)

    def counters(self) -> dict[str, Any]:
        """The per-step counters a worker prints (indented JSON) when it stops."""
        text = "\n" + self.out.read_text()
        start = text.rfind("\n{\n")
        assert start >= 0, text[-3000:]
        got: dict[str, Any] = json.loads(text[start:])
        return got


async def read_all(log: KafkaEventLog, topic: str) -> list[StoredRecord]:
    out: list[StoredRecord] = []
    for p in range(await log.partitions(topic)):
        got: list[StoredRecord] = []
        while batch := await log.read(topic, p, got[-1].offset + 1 if got else 0, 500):
            got.extend(batch)
        out += got
    return out


async def caught_up(log: KafkaEventLog, worker: Worker, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        pos = await log.positions([FILES.name], list(STEPS))
        if all(pos.committed[s] == pos.ends for s in STEPS):
            return
        assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
        assert time.monotonic() < deadline, f"workers behind: {pos}"
        await asyncio.sleep(0.2)


def fold(records: list[StoredRecord]) -> dict[str, bytes]:
    state: dict[str, bytes] = {}
    for r in sorted(records, key=lambda r: (r.partition, r.offset)):
        if r.key is not None:
            if r.value is None:
                state.pop(r.key, None)
            else:
                state[r.key] = r.value
    return state


async def test_workers_process_resume_after_sigkill_and_stop_cleanly(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    paths = [f"pkg{i % 4}/mod{i}.py" for i in range(40)]
    await klog.append(
        FILES.name, [upsert(p, f"def f{i}():\n    return {i}\n") for i, p in enumerate(paths)]
    )
    await klog.append(FILES.name, [LogRecord(file_key("demo", "poison.py"), b"not json")])

    worker = Worker(klog, tmp_path)
    await caught_up(klog, worker)
    structure = fold(await read_all(klog, STRUCTURE.name))
    assert set(structure) == {file_key("demo", p) for p in paths}
    assert set(fold(await read_all(klog, CONTENT.name))) == set(structure)
    letters = await read_all(klog, DEADLETTER.name)
    assert sorted(codec.decode(DEADLETTER.name, r.value).step for r in letters) == sorted(STEPS)  # type: ignore[union-attr]

    # rounds of edits and a delete; SIGKILL the worker once their outputs start to appear
    # (mid-stream: some produced, offsets not yet committed), then start a new one
    before = await klog.positions([STRUCTURE.name], [])
    for r in range(8):
        body = "def g():\n" + "    pass\n" * (r + 1)
        await klog.append(FILES.name, [upsert(p, body) for p in paths[:20]])
    await klog.append(FILES.name, [LogRecord(file_key("demo", paths[-1]), None)])
    while (await klog.positions([STRUCTURE.name], [])).ends == before.ends:
        await asyncio.sleep(0.01)
    assert worker.stop(signal.SIGKILL) == -signal.SIGKILL
    worker = Worker(klog, tmp_path)
    await caught_up(klog, worker)
    structure = fold(await read_all(klog, STRUCTURE.name))
    assert set(structure) == {file_key("demo", p) for p in paths[:-1]}
    for p in paths[:20]:  # the last round wins everywhere
        edited = StructureRecord.model_validate_json(structure[file_key("demo", p)])
        assert edited.line_count == 9 and edited.path == p

    started = time.monotonic()
    assert worker.stop(signal.SIGTERM) == 0, worker.out.read_text()[-3000:]
    assert time.monotonic() - started < 30  # bounded shutdown (the wait above enforces it)
    # faust created nothing of its own (no leader, changelog or repartition topics)
    assert await broker_topics(klog) == {klog.physical_topic(t.name) for t in CATALOGUE}


async def broker_topics(log: KafkaEventLog) -> set[str]:
    admin = AIOKafkaAdminClient(bootstrap_servers=log.bootstrap)
    await admin.start()
    try:
        return {t for t in await admin.list_topics() if t.startswith(log.prefix)}
    finally:
        await admin.close()


async def test_worker_refuses_unprovisioned_topics(
    kafka_broker: KafkaBroker, tmp_path: Path
) -> None:
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix=u{uuid.uuid4().hex[:12]}.")
    try:
        worker = Worker(log, tmp_path, ("structural",))
        assert worker.proc.wait(timeout=60) != 0
        out = worker.out.read_text()
        assert "unknown topic" in out and "repocontext topics" in out, out[-3000:]
        assert await broker_topics(log) == set()  # and created none itself
    finally:
        await log.close()


class Replica:
    """`repocontext query` on a free loopback port."""

    def __init__(self, log: KafkaEventLog, tmp: Path, *extra_env: tuple[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = child_env(tmp / "replica-data")
        env["REPOCONTEXT_LOG_URL"] = log.url
        env["REPOCONTEXT_EMBEDDER"] = "none"  # keyword plane; vectors are another issue's
        env.update(extra_env)
        self.out = tmp / "replica.log"
        with open(self.out, "wb") as sink:
            self.proc = subprocess.Popen(
                cli_command("query", "--port", str(self.port)),
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )

    async def wait_live(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient() as client:
            while True:
                assert self.proc.poll() is None, self.out.read_text()[-3000:]
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(self.base + "/health/live")).status_code == 200:
                        return
                assert time.monotonic() < deadline, self.out.read_text()[-3000:]
                await asyncio.sleep(0.1)


async def test_query_replica_serves_what_the_workers_derived(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    bodies = {
        f"src/widget{i}.py": f"def assemble_widget_{i}():\n    return {i}\n" for i in range(8)
    }
    await klog.append(FILES.name, [upsert(p, b) for p, b in bodies.items()])
    worker, replica = Worker(klog, tmp_path), Replica(klog, tmp_path)
    try:
        await replica.wait_live()
        async with http_session(replica.base) as session:

            async def found() -> dict[str, Any] | None:
                args = {"repoId": "demo", "query": "assemble_widget_5"}
                result = await call(session, "repocontext_search", args)
                paths = [h["entry"]["path"] for h in result["hits"]]
                return result if paths and paths[0] == "src/widget5.py" else None

            result = await wait_for(found, 90.0, "the replica to serve the indexed file")
            fresh = result["freshness"]
            assert fresh["logEndOffsets"] >= fresh["appliedOffsets"] > 0
    finally:
        assert replica.proc.poll() is None, replica.out.read_text()[-3000:]
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
        worker.stop()


async def test_query_replica_applies_the_bearer_token_file(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    """A replica fails closed like `serve`: the token file gates /mcp, health stays open."""
    from tests.integration.test_access_control import READER, token_file, tools_as

    auth = token_file(tmp_path / "tokens.json")
    replica = Replica(klog, tmp_path, ("REPOCONTEXT_AUTH_FILE", str(auth)))
    try:
        await replica.wait_live()
        async with httpx.AsyncClient(timeout=30) as client:
            anonymous = await client.post(replica.base + "/mcp", json={"jsonrpc": "2.0"})
            assert anonymous.status_code == 401
        assert "repocontext_search" in await tools_as(replica.base, READER)
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
