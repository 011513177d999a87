"""How long a new query replica takes to become ready on Django, and how far behind it is then.

    .venv/bin/python -m tests.bench.replica_ready [--bound 1000 --bound 0]

Starts the test broker (tests/kafka/broker.py), indexes the pinned Django corpus through a
`kafka://` log (`repocontext index`, keyword plane), then for each `--bound` starts a fresh
`repocontext query` replica with REPOCONTEXT_READY_MAX_LAG_EVENTS=<bound> and times it from
process start to /health/ready 200, reporting the events it still trailed by then (from the
readiness body's freshness) and the record events it had to apply. Not a test: broker, CLI
and bench share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from query_api.settings import default_data_dir
from tests.bench.indexing import fetch_corpus
from tests.bench.kafka_replay import cli
from tests.conftest import child_env, cli_command, free_port
from tests.kafka.broker import KafkaBroker


async def ready_body(base: str) -> dict[str, Any] | None:
    """The readiness body when /health/ready says 200, else None."""
    try:
        async with httpx.AsyncClient(timeout=5) as client:
            response = await client.get(base + "/health/ready")
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    body: dict[str, Any] = response.json()
    return body


async def time_to_ready(url: str, tmp: Path, bound: int) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = child_env(tmp / f"replica-{bound}-data")
    env["REPOCONTEXT_LOG_URL"] = url
    env["REPOCONTEXT_EMBEDDER"] = "none"
    env["REPOCONTEXT_READY_MAX_LAG_EVENTS"] = str(bound)
    env["REPOCONTEXT_REPLICA_ID"] = f"fresh-{bound}-{uuid.uuid4().hex[:6]}"
    started = time.perf_counter()
    proc = subprocess.Popen(
        cli_command("query", "--port", str(port)),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while (body := await ready_body(base)) is None:
            if proc.poll() is not None or time.perf_counter() - started > 1800:
                raise SystemExit(f"the replica with bound {bound} never became ready")
            await asyncio.sleep(0.1)
        seconds = time.perf_counter() - started
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    fresh = body.get("freshness") or {}
    return {
        "bound_events": bound,
        "seconds_to_ready": round(seconds, 1),
        "events_behind_when_ready": fresh.get("eventsBehind"),
        "record_events": fresh.get("logEndOffsets"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.replica_ready")
    parser.add_argument("--bound", type=int, action="append")
    args = parser.parse_args()
    bounds = args.bound or [1000, 0]
    corpus = fetch_corpus(default_data_dir() / "bench")
    out: dict[str, Any] = {"corpus": corpus.name, "replicas": []}
    with tempfile.TemporaryDirectory(prefix="rready-") as d:
        tmp = Path(d)
        broker = KafkaBroker(tmp / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            url = f"kafka://{broker.bootstrap}?prefix=q{uuid.uuid4().hex[:10]}."
            env = {k: v for k, v in os.environ.items() if not k.startswith("REPOCONTEXT_")}
            env["REPOCONTEXT_LOG_URL"] = url
            index, _ = cli(["index", str(corpus), "--data-dir", str(tmp / "indexer")], env)
            out["index_s"] = index["seconds"]
            for bound in bounds:
                out["replicas"].append(asyncio.run(time_to_ready(url, tmp, bound)))
        finally:
            broker.stop()
    out["load_average"] = os.getloadavg()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
