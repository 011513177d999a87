"""What a query replica does while the Kafka broker is away, and after it returns.

    .venv/bin/python -m tests.bench.broker_outage [--files 200] [--outage-s 90]

Starts the test broker (tests/kafka/broker.py), one `repocontext worker` (every processor
step) and one `repocontext query` replica, indexes `--files` file events, then stops the broker
for `--outage-s` seconds. Meanwhile it calls /health/ready and `repocontext_search` over HTTP
MCP in a loop and records each answer's status and latency. Then it restarts the broker on
the same storage, appends 20 more files and measures how long until the replica serves them.
Reports latencies (p50/p95/max), the statuses seen, how long freshness took to say the log is
unreachable, and the ERROR/WARNING lines each process logged during the outage. Not a test:
the numbers depend on the machine (broker, processes and this client share its cores).
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
from typing import Any

import httpx

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import CATALOGUE, FILES, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.bench.indexing import pct
from tests.bench.replica_freshness import upsert
from tests.conftest import child_env, cli_command, free_port
from tests.integration.mcp_helpers import call, http_session
from tests.kafka.broker import KafkaBroker


def spawn(tmp: Path, log: KafkaEventLog, name: str, *args: str) -> Any:
    env = child_env(tmp / f"{name}-data")
    env["REPOCONTEXT_LOG_URL"] = log.url
    out = open(tmp / f"{name}.log", "wb")  # noqa: SIM115 (the child owns it)
    return subprocess.Popen(cli_command(name, *args), env=env, stdout=out, stderr=out)


def summary(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 1),
        "p95_ms": round(pct(ms, 0.95), 1),
        "max_ms": round(ms[-1], 1),
    }


def log_lines(path: Path, start: int) -> dict[str, int]:
    text = path.read_bytes()[start:].decode(errors="replace")
    return {level: text.count(f" {level} ") for level in ("ERROR", "WARNING")} | {
        "Traceback": text.count("Traceback")
    }


async def searchable(base: str, word: str, deadline_s: float) -> float:
    started = time.perf_counter()
    async with http_session(base) as session:
        while time.perf_counter() - started < deadline_s:
            result = await call(session, "repocontext_search", {"repoId": "live", "query": word})
            if result["hits"] and word in result["hits"][0]["entry"]["path"]:
                return time.perf_counter() - started
            await asyncio.sleep(0.1)
    raise TimeoutError(f"{word} not searchable within {deadline_s} s")


async def measure(broker: KafkaBroker, files: int, outage_s: float, tmp: Path) -> dict[str, Any]:
    url = f"kafka://{broker.bootstrap}?prefix=b{uuid.uuid4().hex[:10]}."
    log = KafkaEventLog(url)
    await log.create_topics(CATALOGUE)
    registration = RepoRegistration(repo_id="live", root=None, registered_at=time.time())
    await log.append(REPOS.name, [LogRecord("live", codec.encode(registration))])
    bodies = [
        upsert(f"pkg/seed_{i}.py", f"def seed_{i}():\n    return {i}\n") for i in range(files)
    ]
    await log.append(FILES.name, bodies)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    worker = spawn(tmp, log, "worker")
    replica = spawn(tmp, log, "query", "--port", str(port))
    out: dict[str, Any] = {"files": files, "outage_s": outage_s}
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            while True:  # the replica listens once it has opened its views
                try:
                    if (await client.get(base + "/health/live")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert replica.poll() is None, (tmp / "query.log").read_text()[-3000:]
                await asyncio.sleep(0.2)
        await searchable(base, f"seed_{files - 1}", 180.0)
        async with httpx.AsyncClient(timeout=60) as client:
            while (await client.get(base + "/health/ready")).status_code != 200:
                await asyncio.sleep(0.2)
            async with http_session(base) as session:  # the same calls with the broker up
                before: list[float] = []
                for _ in range(20):
                    t0 = time.perf_counter()
                    await call(session, "repocontext_search", {"repoId": "live", "query": "seed_7"})
                    before.append(time.perf_counter() - t0)
                    await asyncio.sleep(0.5)
            out["search_before_outage"] = summary(before)
            await log.close()
            marks = {n: (tmp / f"{n}.log").stat().st_size for n in ("worker", "query")}
            stopped = time.perf_counter()
            broker.stop()
            out["broker_stop_s"] = round(time.perf_counter() - stopped, 2)
            health: list[float] = []
            search: list[float] = []
            statuses: dict[str, int] = {}
            unreachable_after: float | None = None
            async with http_session(base) as session:
                while time.perf_counter() - stopped < outage_s:
                    t0 = time.perf_counter()
                    response = await client.get(base + "/health/ready")
                    health.append(time.perf_counter() - t0)
                    key = str(response.status_code)
                    statuses[key] = statuses.get(key, 0) + 1
                    fresh = response.json().get("freshness") or {}
                    if unreachable_after is None and fresh.get("logReachable") is False:
                        unreachable_after = time.perf_counter() - stopped
                    t0 = time.perf_counter()
                    result = await call(
                        session, "repocontext_search", {"repoId": "live", "query": "seed_7"}
                    )
                    search.append(time.perf_counter() - t0)
                    assert result["hits"], result
                    await asyncio.sleep(0.5)
            out["health_during_outage"] = summary(health) | {"statuses": statuses}
            out["search_during_outage"] = summary(search)
            out["freshness_says_unreachable_after_s"] = (
                None if unreachable_after is None else round(unreachable_after, 2)
            )
            out["log_lines_during_outage"] = {
                n: log_lines(tmp / f"{n}.log", marks[n]) for n in ("worker", "query")
            }
        restarted = time.perf_counter()
        broker.launch()
        out["broker_restart_s"] = round(time.perf_counter() - restarted, 2)
        log = KafkaEventLog(url)
        await log.append(
            FILES.name,
            [upsert(f"pkg/after_{i}.py", f"def after_{i}():\n    pass\n") for i in range(20)],
        )
        out["after_restart_searchable_s"] = round(await searchable(base, "after_19", 300.0), 2)
    finally:
        for proc in (replica, worker):
            proc.terminate()
        for proc in (replica, worker):
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
        await log.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--outage-s", type=float, default=90.0)
    parser.add_argument("--keep", type=Path, help="keep the processes' logs in this directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = str(args.keep or scratch)
        Path(tmp).mkdir(parents=True, exist_ok=True)
        broker = KafkaBroker(Path(scratch) / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            result = asyncio.run(measure(broker, args.files, args.outage_s, Path(tmp)))
        finally:
            broker.stop()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
