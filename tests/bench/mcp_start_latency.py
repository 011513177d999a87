"""Start fast (issue 21 item 5): seconds from spawning `repocontext mcp PATH` to its first
keyword answer with hits, through the real MCP client over stdio, initialize included:

    .venv/bin/python -m tests.bench.mcp_start_latency [--before TREE] [--rounds N] [--compile]
        CHECKOUT

`cold`: an empty data directory. `warm`: a data directory that already holds PATH's views and
its complete vectors (made once per source tree with `repocontext index --vectors PATH`, then
copied for every run, since a run writes to it), with the local embedder configured. The
server is spawned from this tree and, with `--before TREE` (a `git archive` of an older
commit), from that tree too; each round runs every (tree, state) pair back to back, so load
from other work falls on both alike. A search is sent as soon as `initialize` returns and
repeated until it has hits (an unknown repository is retried: the server registers PATH while
it starts); from a warm directory the search is then repeated until an answer is semantic
(`first semantic`). `--tree NAME=DIR` (repeatable) names the trees instead of --before/--after.
`--compile` compiles each tree's modules first and lets the server read them, as an installed
wheel's are (this environment sets PYTHONDONTWRITEBYTECODE, so a source tree's ~190 modules
are otherwise compiled on every start, about 0.5 s of CPU). Nothing is asserted: the machine
is shared; read the medians side by side.
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

from schemas.events import repo_id_from_name
from tests.bench.mcp_start_memory import children

QUERY = "response body"
ANSWER_LIMIT_S = 300.0


COMPILED = False  # --compile: the server reads the trees' compiled modules


def server_env(tree: Path, data: Path) -> dict[str, str]:
    env = dict(
        os.environ,
        REPOCONTEXT_DATA_DIR=str(data),
        REPOCONTEXT_EMBEDDER="local",
        PYTHONPATH=str(tree),
    )
    if COMPILED:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def tree_cpu_s() -> tuple[float, float]:
    """CPU seconds, user + system, of the server (this process's child) and of every process
    below it (reaped ones count in their parent's cutime/cstime)."""
    server, below, todo = 0.0, 0.0, [(pid, 0) for pid in children(os.getpid())]
    while todo:
        pid, depth = todo.pop()
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        own = sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")
        reaped = sum(int(x) for x in fields[13:15]) / os.sysconf("SC_CLK_TCK")
        server, below = (server + own, below + reaped) if depth == 0 else (server, below + own)
        todo += [(kid, depth + 1) for kid in children(pid)]
    return server, below


def compile_tree(tree: Path) -> None:
    packages = [str(tree / p) for p in ("schemas", "processors", "streams", "query_api")]
    command = [sys.executable, "-m", "compileall", "-q", *packages, str(tree / "repocontext")]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


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


async def first_semantic(session: ClientSession, args: dict[str, Any], began: float) -> float:
    """Seconds to the first semantic answer (a warm data directory has every vector)."""
    while time.perf_counter() - began < ANSWER_LIMIT_S:
        result = await session.call_tool("repocontext_search", args)
        path = str((result.structuredContent or {}).get("retrievalPath"))
        if path.startswith("semantic"):
            return time.perf_counter() - began
        await asyncio.sleep(0.05)
    return float("nan")


async def first_answer(
    tree: Path, checkout: Path, data: Path, query: str, semantic: bool
) -> dict[str, Any]:
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
            args = {"repoId": repo_id_from_name(checkout.name), "query": query, "k": 5}
            while time.perf_counter() - began < ANSWER_LIMIT_S:
                result = await session.call_tool("repocontext_search", args)
                content = result.structuredContent or {}
                if not result.isError and content.get("hits"):
                    out["answer_s"] = time.perf_counter() - began
                    out["server_cpu_s"], out["children_cpu_s"] = tree_cpu_s()
                    out["cpu_s"] = out["server_cpu_s"] + out["children_cpu_s"]
                    out["path"] = content.get("retrievalPath")
                    if semantic:
                        out["semantic_s"] = await first_semantic(session, args, began)
                    return out
                await asyncio.sleep(0.05)
    out["answer_s"], out["path"] = float("nan"), "none"
    out["cpu_s"] = out["server_cpu_s"] = out["children_cpu_s"] = float("nan")
    return out


def run_once(tree: Path, checkout: Path, state: str, warm: Path, query: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="mcp-start-") as scratch:
        data = Path(scratch) / "data"
        if state == "warm":
            shutil.copytree(warm, data)
        return asyncio.run(first_answer(tree, checkout, data, query, semantic=state == "warm"))


def report(results: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    print(
        "\n| tree | state | initialize s | first answer with hits s | CPU s (server + children) "
        "| first semantic s | runs | paths |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for (tree, state), runs in results.items():
        init = statistics.median(r["initialize_s"] for r in runs)
        answer = statistics.median(r["answer_s"] for r in runs)
        cpu = statistics.median(r["cpu_s"] for r in runs)
        server = statistics.median(r["server_cpu_s"] for r in runs)
        below = statistics.median(r["children_cpu_s"] for r in runs)
        semantic = [r["semantic_s"] for r in runs if "semantic_s" in r]
        first_semantic = f"{statistics.median(semantic):.2f}" if semantic else "-"
        each = " / ".join(f"{r['answer_s']:.1f}" for r in runs)
        paths = ", ".join(sorted({str(r["path"]) for r in runs}))
        print(
            f"| {tree} | {state} | {init:.2f} | {answer:.2f} ({each}) "
            f"| {cpu:.2f} ({server:.2f} + {below:.2f}) | "
            f"{first_semantic} | {len(runs)} | {paths} |"
        )
    print("(medians; each run's first answer in brackets; CPU: the server + its children)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a repository checkout (its name: the id)")
    parser.add_argument("--before", type=Path, help="source tree of the older server")
    parser.add_argument("--after", type=Path, default=Path.cwd(), help="source tree (this one)")
    parser.add_argument(
        "--tree", action="append", default=[], help="NAME=DIR: a source tree (repeatable)"
    )
    parser.add_argument("--compile", action="store_true", help="compiled modules, as installed")
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
    if args.tree:
        trees = {n: Path(d).expanduser().resolve() for n, d in (x.split("=", 1) for x in args.tree)}
    if args.compile:
        global COMPILED
        COMPILED = True
        for tree in trees.values():
            compile_tree(tree)
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
                    f"CPU {r['server_cpu_s']:.2f} + {r['children_cpu_s']:.2f} s, "
                    f"first semantic {r.get('semantic_s', 0):.2f} s, "
                    f"load {r['load']:.1f}",
                    flush=True,
                )
    report(results)
    if args.data_root is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
