"""End-to-end freshness of the distributed mode: a file change -> searchable on a query replica.

    .venv/bin/python -m tests.bench.replica_freshness [--edits 30]

Starts the test broker (tests/kafka/broker.py), provisions the catalogue, runs one
`repocontext worker` (every processor step, faust agents) and one `repocontext query`
replica, then, one at a time, appends a file event carrying a fresh identifier to files.v1 (what
a source publishes) and polls the replica's `repocontext_search` over HTTP MCP until that file
is the hit. Reports p50/p95 of append -> searchable. Not a test: numbers depend on the machine
(broker, worker, replica and this client share its cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from schemas import codec
from schemas.events import FileUpsert, RepoRegistration, file_key
from schemas.topics import CATALOGUE, FILES, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.bench.indexing import pct
from tests.conftest import child_env, cli_command, free_port
from tests.integration.mcp_helpers import call, http_session
from tests.kafka.broker import KafkaBroker


def upsert(path: str, body: str) -> LogRecord:
    event = FileUpsert(
        repo_id="live",
        path=path,
        digest=f"xx128:{uuid.uuid4().hex}",
        size=len(body),
        mtime_ns=1,
        language="python",
        body=body,
        observed_at=time.time(),
    )
    return LogRecord(file_key("live", path), codec.encode(event))


async def measure(broker: KafkaBroker, edits: int, tmp: Path) -> dict[str, object]:
    log = KafkaEventLog(f"kafka://{broker.bootstrap}?prefix=f{uuid.uuid4().hex[:10]}.")
    await log.create_topics(CATALOGUE)
    registration = RepoRegistration(repo_id="live", root=None, registered_at=time.time())
    await log.append(REPOS.name, [LogRecord("live", codec.encode(registration))])
    await log.append(FILES.name, [upsert("seed.py", "def seed():\n    return 0\n")])
    port = free_port()
    procs = []
    for name, args in (("worker", ()), ("query", ("--port", str(port)))):
        env = child_env(tmp / f"{name}-data")
        env["REPOCONTEXT_LOG_URL"] = log.url
        procs.append(
            subprocess.Popen(
                cli_command(name, *args),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    samples: list[float] = []
    try:
        async with http_session(await _live(f"http://127.0.0.1:{port}")) as session:
            for i in range(edits + 1):
                word = f"fresh{uuid.uuid4().hex[:10]}"
                path = f"pkg/edit_{i}.py"
                started = time.perf_counter()
                await log.append(FILES.name, [upsert(path, f"def {word}():\n    return {i}\n")])
                while True:
                    result = await call(
                        session, "repocontext_search", {"repoId": "live", "query": word}
                    )
                    if any(h["entry"]["path"] == path for h in result["hits"]):
                        break
                    if time.perf_counter() - started > 120:
                        raise SystemExit(f"edit {i} never became searchable")
                    await asyncio.sleep(0.01)
                if i:  # the first includes the worker's and replica's start-up
                    samples.append((time.perf_counter() - started) * 1000)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
        await log.close()
    return {
        "edits": edits,
        "append_to_searchable_ms": {
            "p50": round(statistics.median(samples), 1),
            "p95": round(pct(samples, 0.95), 1),
            "max": round(max(samples), 1),
        },
    }


async def _live(base: str) -> str:
    import httpx

    deadline = time.monotonic() + 120
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            try:
                if (await client.get(base + "/health/live")).status_code == 200:
                    return base
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise SystemExit("the query replica did not come up")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        broker = KafkaBroker(Path(d) / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            result = asyncio.run(measure(broker, args.edits, Path(d)))
        finally:
            broker.stop()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
