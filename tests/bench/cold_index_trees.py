"""Cold index with symbols on, two trees side by side (not a test):
`python -m tests.bench.cold_index_trees --base /tmp/x/base --runs 3`.

`repocontext index` over the pinned Django sdist of `make bench`, run by this tree's code and by
`--base` (a worktree of an older commit: `git worktree add -f --detach DIR COMMIT`, with a
`.venv` link), in turns (ABBA...) so that both meet the same load. Each run reports wall-clock
files/s and files per CPU-second: the CPU of the index process and of the workers it reaped
(wait4), which moves far less than wall time on a shared machine, so the two trees' CPU ratio
is the figure to compare across hours.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from query_api.settings import default_data_dir
from tests.bench.indexing import fetch_corpus

HERE = Path(__file__).resolve().parents[2]


def index_once(tree: Path, corpus: Path, data_dir: Path) -> dict[str, Any]:
    """One cold `repocontext index` with `tree`'s code: files, seconds, CPU seconds, rates."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "repocontext.cli", "index", str(corpus), "--data-dir",
         str(data_dir), "--embedder", "none"],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),  # the spawned workers import `tree` too
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdout is not None
    out = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"index with {tree} failed: {out[-2000:]!r}")
    summary = json.loads(out)
    files = int(summary.get("filesScanned") or 0)
    cpu = usage.ru_utime + usage.ru_stime
    return {
        "files": files,
        "seconds": float(summary["seconds"]),
        "wall": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "files_per_s": round(files / float(summary["seconds"]), 1),
        "files_per_cpu_s": round(files / cpu, 1),
        "load1": round(load, 1),
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    return {
        key: statistics.median(float(r[key]) for r in runs)
        for key in ("seconds", "cpu_s", "files_per_s", "files_per_cpu_s")
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.cold_index_trees")
    parser.add_argument("--base", type=Path, required=True, help="the older tree's worktree")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    corpus = fetch_corpus(default_data_dir() / "bench")
    trees = {"base": args.base.resolve(), "new": HERE}
    results: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="repocontext-coldtrees-") as scratch:
        for run in range(args.runs):
            for name in ("base", "new") if run % 2 == 0 else ("new", "base"):
                data_dir = Path(scratch) / f"{name}-{run}"
                results[name].append(index_once(trees[name], corpus, data_dir))
                print(name, run + 1, json.dumps(results[name][-1]), file=sys.stderr)
                shutil.rmtree(data_dir, ignore_errors=True)
    base, new = summary(results["base"]), summary(results["new"])
    report = {
        "base": {"tree": str(trees["base"]), **base},
        "new": {"tree": str(trees["new"]), **new},
        "files_per_s_new_over_base": round(new["files_per_s"] / base["files_per_s"], 3),
        "cpu_new_over_base": round(new["cpu_s"] / base["cpu_s"], 3),
        "runs": results,
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
