"""How long search's file graph takes to build (query_api/retrieval/file_graph.py), over the
localisation benchmark's cached repositories:

    .venv/bin/python -m tests.bench.file_graph_build [--repos zod,core,trpc] [--rounds 3] \
        [--baseline-tree DIR]

Each repository's cached `default` data directory (as `python -m tests.bench.localisation run`
built it; run that first) is opened keyword-only and its graph built `--rounds` times in a
child process; prints the median build time, the files linked and a digest of the graph, so
two trees that must build the same graph can be compared. With `--baseline-tree DIR` (a `git
worktree add DIR <older commit>`) that tree builds too, in turns with this one. A first
search of a small repository waits for its build (INLINE_FIRST_FILES), and a large one's
neighbour fill is missing until it ends. Nothing is asserted: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tests.bench.localisation.checkout import DEFAULT_CACHE, cache_key, checkout
from tests.bench.localisation.repos import DEFAULT_MIRRORS, select

ROOT = Path(__file__).resolve().parents[2]


async def measure(name: str, rounds: int) -> dict[str, object]:
    """(in the child) median seconds, files linked and digest of one repository's graph."""
    from tests.bench.localisation.system import RepocontextSystem

    repo = next(r for r in select("all") if r.name.split("/")[1] == name)
    root = checkout(repo, DEFAULT_MIRRORS, DEFAULT_CACHE)
    data_dir = DEFAULT_CACHE / "systems" / "local" / cache_key(repo)
    system = await RepocontextSystem.open(root, data_dir, embedder="none")
    try:
        retriever = system.app.service.retriever
        assert retriever is not None
        took, graph = [], {}
        for _ in range(rounds):
            started = time.perf_counter()
            graph = retriever.graphs._build_graph(system.repo_id) or {}
            took.append(time.perf_counter() - started)
    finally:
        await system.app.close()
    shape = json.dumps({k: sorted(v) for k, v in sorted(graph.items())})
    return {
        "seconds": statistics.median(took),
        "files": len(graph),
        "digest": hashlib.sha256(shape.encode()).hexdigest()[:12],
    }


def run_in(tree: Path, name: str, rounds: int) -> dict[str, object]:
    # this file, run with the tree's code: a baseline need not have it
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", name, "--rounds", str(rounds)],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default="zod,core,trpc,fastify,axum,clap")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline-tree", type=Path, default=None)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(measure(args.child, args.rounds))))
        return
    trees = [("this tree", ROOT)]
    if args.baseline_tree is not None:
        trees.insert(0, ("baseline", args.baseline_tree.resolve()))
    print("| repository | tree | files linked | median build (s) | graph digest |")
    print("|---|---|---|---|---|")
    for name in args.repos.split(","):
        for label, tree in trees:
            got = run_in(tree, name, args.rounds)
            print(
                f"| {name} | {label} | {got['files']} | {got['seconds']:.2f} | {got['digest']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
