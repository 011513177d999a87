"""Replay on Kafka against the first indexing, with the SQLite log side by side.

    .venv/bin/python -m tests.bench.kafka_replay [--runs 3]

Per run and per log (a fresh `kafka://` prefix on the test broker, or a fresh SQLite data
dir): `repocontext index` of the pinned Django corpus (keyword plane, `--embedder none`), then
`repocontext replay` (drop every view, re-consume the record topics). Reports the medians of
both, and replay / first indexing. Not a test: broker, CLI and bench share the machine's cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from query_api.settings import default_data_dir
from tests.bench.indexing import fetch_corpus
from tests.kafka.broker import KafkaBroker


def cli(args: list[str], env: dict[str, str]) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "repocontext.cli", *args, "--embedder", "none"],
        env=env,
        capture_output=True,
        check=False,
    )
    took = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{args[0]} failed ({proc.returncode}): {proc.stderr[-2000:]!r}")
    result: dict[str, Any] = json.loads(proc.stdout)
    return result, took


def one_run(corpus: Path, scratch: Path, log_url: str | None) -> dict[str, float]:
    data = scratch / uuid.uuid4().hex[:8]
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOCONTEXT_")}
    if log_url is not None:
        env["REPOCONTEXT_LOG_URL"] = log_url
    index, _ = cli(["index", str(corpus), "--data-dir", str(data)], env)
    replay, _ = cli(["replay", "--data-dir", str(data)], env)
    return {"index_s": float(index["seconds"]), "replay_s": float(replay["seconds"])}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.kafka_replay")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    corpus = fetch_corpus(default_data_dir() / "bench")
    out: dict[str, Any] = {"corpus": corpus.name, "runs": args.runs}
    with tempfile.TemporaryDirectory(prefix="kreplay-") as tmp:
        scratch = Path(tmp)
        broker = KafkaBroker(scratch / "kafka")
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        try:
            samples: dict[str, list[dict[str, float]]] = {"kafka": [], "sqlite": []}
            for run in range(args.runs):  # alternating, so both see the same machine
                url = f"kafka://{broker.bootstrap}?prefix=r{uuid.uuid4().hex[:10]}."
                samples["kafka"].append(one_run(corpus, scratch, url))
                samples["sqlite"].append(one_run(corpus, scratch, None))
                print(f"run {run + 1}/{args.runs}: {samples}", file=sys.stderr, flush=True)
        finally:
            broker.stop()
    for name, runs in samples.items():
        index = statistics.median(r["index_s"] for r in runs)
        replay = statistics.median(r["replay_s"] for r in runs)
        out[name] = {
            "index_s": round(index, 2),
            "replay_s": round(replay, 2),
            "replay_vs_index": round(replay / index, 2),
        }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
