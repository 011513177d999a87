"""Processor throughput on a real Kafka broker with 1 and 2 `repocontext worker` processes.

    .venv/bin/python -m tests.bench.kafka_workers [--events 4000]

Starts the test broker (tests/kafka/broker.py), provisions the catalogue under a fresh prefix,
appends N file events (Python bodies of ~1 KiB over 6 partitions, 24 repositories), then
starts W workers running the structural and content steps and times until every group has
committed the end offsets. Prints JSON. Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from schemas import codec
from schemas.events import FileUpsert, file_key
from schemas.topics import CATALOGUE, FILES
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.conftest import child_env, cli_command
from tests.kafka.broker import KafkaBroker

STEPS = ("structural", "content")


def event(i: int) -> LogRecord:
    repo, path = f"repo{i % 24}", f"pkg{i % 17}/module_{i}.py"
    body = "".join(
        f"def handler_{i}_{j}(request, ctx):\n    return ctx.run({j})\n" for j in range(20)
    )
    upsert = FileUpsert(
        repo_id=repo,
        path=path,
        digest=f"xx128:{i:032x}",
        size=len(body),
        mtime_ns=1,
        language="python",
        body=body,
        observed_at=1.0,
    )
    return LogRecord(file_key(repo, path), codec.encode(upsert))


async def run(broker: KafkaBroker, workers: int, events: int, tmp: Path) -> dict[str, float]:
    log = KafkaEventLog(f"kafka://{broker.bootstrap}?prefix=b{uuid.uuid4().hex[:10]}.")
    await log.create_topics(CATALOGUE)
    for start in range(0, events, 500):
        await log.append(FILES.name, [event(i) for i in range(start, min(events, start + 500))])
    env = child_env(tmp / "data")
    env["REPOCONTEXT_LOG_URL"] = log.url
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            cli_command("worker", *(a for s in STEPS for a in ("--step", s))),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(workers)
    ]
    try:
        while True:
            pos = await log.positions([FILES.name], list(STEPS))
            if all(pos.committed[s] == pos.ends for s in STEPS):
                break
            await asyncio.sleep(0.1)
        seconds = time.perf_counter() - started
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
        await log.close()
    return {
        "workers": workers,
        "events": events,
        "seconds_incl_startup": round(seconds, 2),
        "events_per_s_per_step": round(events / seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=4000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        broker = KafkaBroker(Path(d) / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            results = [asyncio.run(run(broker, w, args.events, Path(d))) for w in (1, 2)]
        finally:
            broker.stop()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
