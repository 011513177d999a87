"""What a re-derivation pass costs on Kafka, against the first indexing.

    .venv/bin/python -m tests.bench.kafka_rederive

On the test broker (a fresh prefix): `repocontext index` of the pinned Django corpus through a
`kafka://` log (keyword plane), then `repocontext worker --step symbols --rederive symbols`,
which re-runs the symbols step over every file event in `files.v1` beside the step's group.
Reports the index time, the pass's own figures from the worker's log line (events, seconds),
and how many records the pass added to `symbols.v1` + `xrefs.v1` (until the log cleaner
compacts the replaced ones). Not a test: broker, CLI and bench share the machine's cores.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from query_api.settings import default_data_dir
from schemas.topics import SYMBOLS, XREFS
from streams.eventlog.kafka import KafkaEventLog
from tests.bench.indexing import fetch_corpus
from tests.bench.kafka_replay import cli
from tests.kafka.broker import KafkaBroker

WORKER_ARGS = ("worker", "--step", "symbols", "--rederive", "symbols")
PASS_LINE = re.compile(r"re-derived (\d+) events in ([0-9.]+) s")


async def record_count(url: str) -> int:
    log = KafkaEventLog(url)
    try:
        return sum(
            [
                await log.end_offset(topic, p)
                for topic in (SYMBOLS.name, XREFS.name)
                for p in range(await log.partitions(topic))
            ]
        )
    finally:
        await log.close()


def rederive(env: dict[str, str], out: Path, timeout_s: float = 900.0) -> tuple[int, float]:
    """Run the asked-for pass in a worker; (events, seconds) from its log line."""
    with open(out, "wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "repocontext.cli", *WORKER_ARGS],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + timeout_s
    try:
        while not (found := PASS_LINE.search(out.read_text())):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"worker ended or timed out: {out.read_text()[-2000:]}")
            time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    return int(found.group(1)), float(found.group(2))


def main() -> int:
    corpus = fetch_corpus(default_data_dir() / "bench")
    out: dict[str, Any] = {"corpus": corpus.name}
    with tempfile.TemporaryDirectory(prefix="krederive-") as tmp:
        scratch = Path(tmp)
        broker = KafkaBroker(scratch / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            url = f"kafka://{broker.bootstrap}?prefix=d{uuid.uuid4().hex[:10]}."
            env = {k: v for k, v in os.environ.items() if not k.startswith("REPOCONTEXT_")}
            env["REPOCONTEXT_LOG_URL"] = url
            env["REPOCONTEXT_DATA_DIR"] = str(scratch / "data")
            index, _ = cli(["index", str(corpus)], env)
            out["index_s"] = float(index["seconds"])
            before = asyncio.run(record_count(url))
            events, seconds = rederive(env, scratch / "worker.log")
            out["rederive"] = {"events": events, "seconds": seconds}
            out["rederive"]["events_per_s"] = round(events / seconds, 1) if seconds else None
            out["records_added"] = asyncio.run(record_count(url)) - before
        finally:
            broker.stop()
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
