"""What forwarding costs a sharded query replica: the same search answered by the shard that
holds the repository vs forwarded to it by the other shard.

    .venv/bin/python -m tests.bench.shard_forwarding [--searches 50] [--files 50]

Starts the test broker (tests/kafka/broker.py), one `repocontext worker` (structural and
content steps) and two `repocontext query` replicas, shard 0/2 and 1/2, each knowing both
URLs (REPOCONTEXT_SHARD_URLS); publishes `--files` files for one repository of each shard and,
once both answer, times `repocontext_search` over one HTTP MCP session to shard 0, alternating
a query for its own repository (local) and one for shard 1's (forwarded). Reports p50/p95 of
each. Not a test: numbers depend on the machine (broker, worker, replicas and this client
share its cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import CATALOGUE, FILES, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.bench.indexing import pct
from tests.conftest import free_port
from tests.integration.mcp_helpers import call, http_session
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_shards import ready, replica, upsert
from tests.kafka.test_kafka_worker import Worker
from tests.streams.test_replica_shards import repos_by_shard


async def measure(broker: KafkaBroker, searches: int, files: int, tmp: Path) -> dict[str, object]:
    log = KafkaEventLog(f"kafka://{broker.bootstrap}?prefix=b{uuid.uuid4().hex[:10]}.")
    await log.create_topics(CATALOGUE)
    (repo0,), (repo1,) = repos_by_shard(2)
    for repo in (repo0, repo1):
        registration = RepoRegistration(repo_id=repo, root=None, registered_at=time.time())
        await log.append(REPOS.name, [LogRecord(repo, codec.encode(registration))])
        await log.append(
            FILES.name,
            [upsert(repo, f"src/m{i}.py", f"def {repo}_probe_{i}():\n    return {i}\n")
             for i in range(files)],
        )  # fmt: skip
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    urls = ",".join(b + "/mcp" for b in bases)
    worker = Worker(log, tmp)
    procs = [replica(log, tmp, k, ports[k], urls) for k in (0, 1)]
    timings: dict[str, list[float]] = {"local": [], "forwarded": []}
    try:
        deadline = time.monotonic() + 180
        for base, repo in zip(bases, (repo0, repo1), strict=True):
            while not await _serves(base, repo, files):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{base} never served {repo}")
                await asyncio.sleep(0.2)
        async with http_session(bases[0]) as session:
            for i in range(searches + 1):
                for label, repo in (("local", repo0), ("forwarded", repo1)):
                    args = {"repoId": repo, "query": f"{repo}_probe_{i % files}"}
                    started = time.perf_counter()
                    result = await call(session, "repocontext_search", args)
                    elapsed = (time.perf_counter() - started) * 1000
                    assert result["hits"], result
                    if i:  # the first of each warms caches
                        timings[label].append(elapsed)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
        worker.stop()
        await log.close()
    return {
        "searches": searches,
        "files_per_repository": files,
        **{
            f"{label}_ms": {
                "p50": round(statistics.median(samples), 1),
                "p95": round(pct(samples, 0.95), 1),
            }
            for label, samples in timings.items()
        },
    }


async def _serves(base: str, repo: str, files: int) -> bool:
    if not await ready(base):
        return False
    async with http_session(base) as session:
        result = await call(session, "repocontext_list_repos", {})
    rows = [r for r in result["repositories"] if r["repoId"] == repo]
    return bool(rows) and (rows[0].get("fileCount") or 0) >= files


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--searches", type=int, default=50)
    parser.add_argument("--files", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        broker = KafkaBroker(Path(d) / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            result = asyncio.run(measure(broker, args.searches, args.files, Path(d)))
        finally:
            broker.stop()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
