"""Start fast (issue 21 item 5): seconds from spawning `repocontext mcp PATH` to its first
keyword answer with hits, through the real MCP client over stdio, initialize included:

    .venv/bin/python -m tests.bench.mcp_start_latency [--before TREE] [--rounds N] CHECKOUT

`cold`: an empty data directory. `warm`: a data directory that already holds PATH's views and
its complete vectors (made once per source tree with `repocontext index --vectors PATH`, then
copied for every run, since a run writes to it), with the local embedder configured. The
server is spawned from this tree and, with `--before TREE` (a `git archive` of an older
commit), from that tree too; each round runs every (tree, state) pair back to back, so load
from other work falls on both alike. A search is sent as soon as `initialize` returns and
repeated until it has hits (an unknown repository is retried: the server registers PATH while
it starts). Nothing is asserted: the machine is shared; read the medians side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

QUERY = "response body"
ANSWER_LIMIT_S = 300.0


def server_env(tree: Path, data: Path) -> dict[str, str]:
    return dict(
        os.environ,
        REPOCONTEXT_DATA_DIR=str(data),
        REPOCONTEXT_EMBEDDER="local",
        PYTHONPATH=str(tree),
    )


def prepare_warm(tree: Path, checkout: Path, data: Path) -> None:
    """Views and complete vectors of `checkout`, written by `tree`'s own code."""
    if (data / "done").exists():
        return
    shutil.rmtree(data, ignore_errors=True)
    command = [sys.executable, "-m", "repocontext.cli", "index", "--vectors", str(checkout)]
    print(f"  preparing the warm data directory of {tree} (index --vectors)", flush=True)
    subprocess.run(
        command,
        cwd=tree,
        env=server_env(tree, data),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    (data / "done").write_text("")


async def first_answer(tree: Path, checkout: Path, data: Path, query: str) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "repocontext.cli", "mcp", str(checkout)],
        env=server_env(tree, data),
        cwd=str(tree),
    )
    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    began = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            out["initialize_s"] = time.perf_counter() - began
            args = {"repoId": checkout.name, "query": query, "k": 5}
            while time.perf_counter() - began < ANSWER_LIMIT_S:
                result = await session.call_tool("repocontext_search", args)
                content = result.structuredContent or {}
                if not result.isError and content.get("hits"):
                    out["answer_s"] = time.perf_counter() - began
                    out["path"] = content.get("retrievalPath")
                    return out
                await asyncio.sleep(0.05)
    out["answer_s"], out["path"] = float("nan"), "none"
    return out


def run_once(tree: Path, checkout: Path, state: str, warm: Path, query: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="mcp-start-") as scratch:
        data = Path(scratch) / "data"
        if state == "warm":
            shutil.copytree(warm, data)
        return asyncio.run(first_answer(tree, checkout, data, query))


def report(results: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    print("\n| tree | state | initialize s | first answer with hits s | runs | paths |")
    print("|---|---|---|---|---|---|")
    for (tree, state), runs in results.items():
        init = statistics.median(r["initialize_s"] for r in runs)
        answer = statistics.median(r["answer_s"] for r in runs)
        each = " / ".join(f"{r['answer_s']:.1f}" for r in runs)
        paths = ", ".join(sorted({str(r["path"]) for r in runs}))
        print(f"| {tree} | {state} | {init:.2f} | {answer:.2f} ({each}) | {len(runs)} | {paths} |")
    print("(medians; each run's first answer in brackets)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a repository checkout (its name: the id)")
    parser.add_argument("--before", type=Path, help="source tree of the older server")
    parser.add_argument("--after", type=Path, default=Path.cwd(), help="source tree (this one)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--states", default="cold,warm", help="cold, warm or both")
    parser.add_argument("--query", default=QUERY)
    parser.add_argument(
        "--data-root", type=Path, help="keep the warm data directories here between invocations"
    )
    args = parser.parse_args()
    checkout = args.checkout.expanduser().resolve()
    trees = {"after": args.after.resolve()}
    if args.before is not None:
        trees = {"before": args.before.resolve(), **trees}
    states = [s for s in args.states.split(",") if s]
    root = args.data_root or Path(tempfile.mkdtemp(prefix="mcp-start-warm-"))
    warm = {name: root / f"{name}-{checkout.name}" for name in trees}
    if "warm" in states:
        for name, tree in trees.items():
            prepare_warm(tree, checkout, warm[name])
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for round_ in range(args.rounds):
        for state in states:
            for name, tree in trees.items():
                r = run_once(tree, checkout, state, warm[name], args.query)
                results.setdefault((name, state), []).append(r)
                print(
                    f"round {round_ + 1} {name:6} {state}: initialize {r['initialize_s']:.2f} s, "
                    f"first answer with hits {r['answer_s']:.2f} s ({r['path']}), "
                    f"load {r['load']:.1f}",
                    flush=True,
                )
    report(results)
    if args.data_root is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
