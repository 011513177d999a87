"""How long a new query replica takes to become ready, whole vs one shard of two.

    .venv/bin/python -m tests.bench.shard_catchup [--repos 12] [--files 200]

Starts the test broker (tests/kafka/broker.py), publishes `--files` files for each of
`--repos` repositories, runs one `repocontext worker` (structural and content steps) until its
groups are at the end of files.v1, stops it, then starts a fresh `repocontext query` replica
(no shard), then a fresh one with REPOCONTEXT_REPLICA_SHARD=0/2, each with
REPOCONTEXT_READY_MAX_LAG_EVENTS=0, and times each from start to /health/ready 200. Reports
the seconds and the repositories each holds. Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
import uuid
from pathlib import Path

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import CATALOGUE, FILES, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.conftest import child_env, cli_command, free_port
from tests.integration.mcp_helpers import call, http_session
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_shards import ready, upsert
from tests.kafka.test_kafka_worker import Worker


async def time_to_ready(
    log: KafkaEventLog, tmp: Path, name: str, shard: str | None
) -> dict[str, object]:
    import subprocess

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = child_env(tmp / f"{name}-data")
    env["REPOCONTEXT_LOG_URL"] = log.url
    env["REPOCONTEXT_EMBEDDER"] = "none"
    env["REPOCONTEXT_READY_MAX_LAG_EVENTS"] = "0"
    env["REPOCONTEXT_REPLICA_ID"] = name
    if shard is not None:
        env["REPOCONTEXT_REPLICA_SHARD"] = shard
    started = time.perf_counter()
    proc = subprocess.Popen(
        cli_command("query", "--port", str(port)),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while not await ready(base):
            if proc.poll() is not None or time.perf_counter() - started > 900:
                raise SystemExit(f"{name} never became ready")
            await asyncio.sleep(0.1)
        seconds = time.perf_counter() - started
        async with http_session(base) as session:
            listed = await call(session, "repocontext_list_repos", {})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {"seconds_to_ready": round(seconds, 1), "repositories": listed["count"]}


async def measure(broker: KafkaBroker, repos: int, files: int, tmp: Path) -> dict[str, object]:
    log = KafkaEventLog(f"kafka://{broker.bootstrap}?prefix=c{uuid.uuid4().hex[:10]}.")
    await log.create_topics(CATALOGUE)
    for r in range(repos):
        repo = f"repo{r}"
        registration = RepoRegistration(repo_id=repo, root=None, registered_at=time.time())
        await log.append(REPOS.name, [LogRecord(repo, codec.encode(registration))])
        body = "".join(f"def {repo}_fn_{{i}}_{j}():\n    return {j}\n" for j in range(20))
        await log.append(
            FILES.name,
            [upsert(repo, f"src/m{i}.py", body.replace("{i}", str(i))) for i in range(files)],
        )
    worker = Worker(log, tmp)
    try:
        deadline = time.monotonic() + 900
        while True:
            pos = await log.positions([FILES.name], ["structural", "content"])
            if all(pos.committed[g] == pos.ends for g in ("structural", "content")):
                break
            if time.monotonic() > deadline:
                raise SystemExit("the worker did not catch up")
            await asyncio.sleep(1)
    finally:
        worker.stop()
    whole = await time_to_ready(log, tmp, "whole", None)
    half = await time_to_ready(log, tmp, "shard0", "0/2")
    await log.close()
    return {"repos": repos, "files_per_repo": files, "whole": whole, "shard_0_of_2": half}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repos", type=int, default=12)
    parser.add_argument("--files", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        broker = KafkaBroker(Path(d) / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            result = asyncio.run(measure(broker, args.repos, args.files, Path(d)))
        finally:
            broker.stop()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
