"""Re-derivation in the distributed mode, on the real broker: a worker whose symbols processor
is newer than the records in `symbols.v1` re-runs it over `files.v1` beside its running group,
while a query replica keeps answering; an operator can ask for the same pass explicitly.

The older release is `OlderSymbolsProcessor` (tests/streams/test_rederive.py): version 1, and
it found no symbols, so the replica's outline shows which release made each file's record.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import subprocess
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from processors.base import ProcessContext
from processors.symbols.processor import PROCESSOR_VERSION
from schemas import codec
from schemas.events import RepoRegistration
from schemas.symbols import SymbolsRecord
from schemas.topics import CATALOGUE, FILES, REPOS, SYMBOLS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from streams.runtime.rederive_pass import pass_reason
from streams.runtime.steps import process_batch
from streams.topology import Step, pipeline_steps
from tests.conftest import child_env, cli_command
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_worker import Replica, Worker, fold, read_all, upsert
from tests.streams.test_rederive import OlderSymbolsProcessor

pytestmark = [pytest.mark.anyio, pytest.mark.kafka]
FILE_COUNT = 40


@pytest.fixture
async def rlog(kafka_broker: KafkaBroker) -> AsyncIterator[KafkaEventLog]:
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix=r{uuid.uuid4().hex[:12]}.")
    await log.create_topics(CATALOGUE)
    yield log
    await log.close()


def body(i: int, name: str = "rebuild_widget") -> str:
    return f"def {name}_{i}():\n    return {i}\n"


async def index_with_an_older_release(log: KafkaEventLog) -> list[str]:
    """The repository's files, and the symbols step of an older release over them (its group
    committed at the end, as that release's worker would have left it)."""
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await log.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    paths = [f"src/widget{i}.py" for i in range(FILE_COUNT)]
    await log.append(FILES.name, [upsert(p, body(i)) for i, p in enumerate(paths)])
    older = dataclasses.replace(symbols_step(), processor=OlderSymbolsProcessor())
    for partition in range(await log.partitions(FILES.name)):
        records = await log.read(FILES.name, partition, 0, 1000)
        if records:
            tx, dead = process_batch(older, records, ProcessContext(now=time.time()))
            assert dead == 0
            await log.apply(tx)  # the outputs, and the group's offset at the partition's end
    return paths


async def symbol_versions(log: KafkaEventLog) -> dict[str, int]:
    """{file key: processor_version of its current symbols.v1 record}."""
    current = fold(await read_all(log, SYMBOLS.name))
    out: dict[str, int] = {}
    for key, value in current.items():
        record = codec.decode(SYMBOLS.name, value)
        assert isinstance(record, SymbolsRecord)
        out[key] = record.processor_version
    return out


async def logged(worker: Worker, text: str) -> bool:
    assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
    await asyncio.sleep(0.2)
    return text in worker.out.read_text()


def symbols_step() -> Step:
    return next(s for s in pipeline_steps() if s.step_id == "symbols")


async def outline_names(session: Any, path: str) -> list[str]:
    result = await call(session, "repocontext_outline", {"repoId": "demo", "path": path})
    return [s["fullyQualifiedName"] for s in result.get("symbols", [])]


@pytest.mark.slow
async def test_a_newer_worker_rederives_while_the_replica_answers(
    rlog: KafkaEventLog, tmp_path: Path
) -> None:
    paths = await index_with_an_older_release(rlog)
    assert set((await symbol_versions(rlog)).values()) == {1}
    old_worker, replica = Worker(rlog, tmp_path), Replica(rlog, tmp_path)  # structure, content
    searches: list[int] = []
    try:
        await replica.wait_live()
        async with http_session(replica.base) as session:

            async def searched() -> bool:
                args = {"repoId": "demo", "query": "rebuild_widget_7"}
                hits = (await call(session, "repocontext_search", args))["hits"]
                searches.append(len(hits))  # each one during the pass is asserted on
                return bool(hits) and hits[0]["entry"]["path"] == "src/widget7.py"

            await wait_for(searched, 90.0, "the replica to serve the older release's index")
            assert await outline_names(session, "src/widget7.py") == []  # the older records
            assert old_worker.stop() == 0, old_worker.out.read_text()[-3000:]

            worker = Worker(rlog, tmp_path, ())  # every step, symbols at PROCESSOR_VERSION
            try:
                # an edit while the pass runs: the replica must end with the edit's symbols
                await rlog.append(FILES.name, [upsert(paths[0], body(0, "renamed_widget"))])
                del searches[:]
                deadline = time.monotonic() + 180.0
                while True:  # search answers throughout, until every file shows its symbol
                    assert await searched(), "search lost the file during the re-derivation"
                    names = [await outline_names(session, p) for p in paths]
                    expected = [["widget0.renamed_widget_0"]] + [
                        [f"widget{i}.rebuild_widget_{i}"] for i in range(1, FILE_COUNT)
                    ]
                    if names == expected:
                        break
                    assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
                    assert time.monotonic() < deadline, (names, worker.out.read_text()[-3000:])
                    await asyncio.sleep(0.2)
            finally:
                assert worker.stop() == 0, worker.out.read_text()[-3000:]
            assert searches and min(searches) > 0  # answered, with hits, throughout
            versions = await symbol_versions(rlog)
            assert len(versions) == FILE_COUNT  # one record per file: none lost, none extra
            assert set(versions.values()) == {PROCESSOR_VERSION}
            passes = worker.counters()["rederived"]
            assert passes["symbols"]["events"] >= FILE_COUNT, passes
            assert passes["symbols"]["reason"].startswith("records made by processor version 1")
            assert "re-derived" in worker.out.read_text()

            # a restart finds its records current: no second pass
            assert await pass_reason(rlog, symbols_step(), explicit=False) is None
    finally:
        if old_worker.proc.poll() is None:  # an assertion before its stop
            old_worker.stop()
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]


@pytest.mark.slow
async def test_an_operator_asks_for_a_rederivation(rlog: KafkaEventLog, tmp_path: Path) -> None:
    paths = await index_with_an_older_release(rlog)
    before = sum([await rlog.end_offset(SYMBOLS.name, p) for p in range(6)])
    worker = Worker(rlog, tmp_path, ("symbols",), args=("--rederive", "symbols"))
    try:
        await wait_for(lambda: logged(worker, "re-derived"), 120.0, "the asked-for pass")
    finally:
        assert worker.stop() == 0, worker.out.read_text()[-3000:]
    passes = worker.counters()["rederived"]
    assert passes["symbols"]["reason"] == "asked for (--rederive)"
    assert passes["symbols"]["events"] == len(paths)
    assert re.fullmatch(r"symbols\.rederive\.v\d+\.\d+", passes["symbols"]["group"])
    assert sum([await rlog.end_offset(SYMBOLS.name, p) for p in range(6)]) >= before + len(paths)
    assert set((await symbol_versions(rlog)).values()) == {PROCESSOR_VERSION}


async def test_rederive_of_a_step_the_worker_does_not_run_is_refused(
    rlog: KafkaEventLog, tmp_path: Path
) -> None:
    env = child_env(tmp_path / "data")
    env["REPOCONTEXT_LOG_URL"] = rlog.url
    command = cli_command("worker", "--step", "content", "--rederive", "memory")
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "--rederive memory: not a processor step this worker runs" in done.stderr
    assert "its steps: content" in done.stderr
