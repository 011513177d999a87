"""Start-fast and memory of the stdio MCP server with the local embedder (issue 21 items 4-5):

    .venv/bin/python -m tests.bench.mcp_start_memory [--start-only] [--search-every S] CHECKOUT ...

(a directory whose name is a valid repository id: e.g. a copy of the localisation benchmark's
pinned koa checkout at /tmp/bench-src/koa).

Spawns `repocontext mcp PATH` (fresh data directory, REPOCONTEXT_EMBEDDER=local) through the
real MCP client and reports: seconds to `initialize`, seconds to the first search answer with
hits (keyword while vectors backfill), seconds to full vector coverage (list_repos'
vectorCoverage), peak RSS of the server plus every child it starts (sampled every 0.2 s from
/proc), RSS once the backfill is done and again SETTLE_S later, once idle worker processes
have stopped, with the processes still held, and once more after one search (the server loads
its query model), and once more after the query model's idle period (`--start-only`: stop
after the first answer, for repositories whose backfill takes long). `--search-every S`: one
search every S seconds while the backfill runs, as an agent working meanwhile makes, so the
peak includes the server's query model next to the encoder child. Nothing is asserted; the
machine is shared. Run from a source tree's root to measure that tree (the server runs from
the current directory).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SAMPLE_S = 0.2
SETTLE_S = 30.0  # the passage encoder and processor workers stop after 20 s without work
QUERY_SETTLE_S = 65.0  # the server's query model goes 60 s after its last query


def children(pid: int) -> list[int]:
    """The pids of `pid`'s live child processes (from /proc)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            continue
    return out


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def descendants() -> list[int]:
    """Every descendant of this process but a fork that has not exec'd yet (its parent's
    command line): `subprocess` starts git and the HNSW build by vfork, whose child reports
    the parent's very memory until it execs, so a sample then counted the server twice (a
    Django peak of 598 MiB with two 261 MiB `cli` processes)."""
    out: list[int] = []
    todo = [(pid, _cmdline(os.getpid())) for pid in children(os.getpid())]
    while todo:
        pid, parent = todo.pop()
        line = _cmdline(pid)
        if line != parent:
            out.append(pid)
        todo += [(kid, line) for kid in children(pid)]
    return out


def tree_rss_mib() -> float:
    """RSS of every descendant of this process (the server and whatever it starts)."""
    return sum(_rss_kib(pid) for pid in descendants()) / 1024


def process_name(pid: int) -> str:
    """What a descendant runs: its `-m` module's last part (cli, passage_worker,
    resource_tracker), `-c` for an inline script (the HNSW build), else its command name."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode(errors="replace").split("\0")
        with open(f"/proc/{pid}/comm", encoding="ascii") as comm:
            name = comm.read().strip()
    except OSError:
        return ""
    for flag, value in itertools.pairwise(args):
        if flag == "-m":
            return value.rsplit(".", 1)[-1]
        if flag == "-c":
            return "resource_tracker" if "resource_tracker" in value else "-c"
    return name


def tree_processes() -> list[str]:
    """Every descendant's pid and what it runs (what holds memory once idle)."""
    out = []
    for pid in descendants():
        name = process_name(pid)
        if name:
            out.append(f"{pid}:{name}:{_rss_kib(pid) // 1024}MiB")
    return out


class PeakSampler:
    """The tree's peak RSS, and which processes held it at that moment."""

    def __init__(self) -> None:
        self.peak = 0.0
        self.at_peak: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            rss = tree_rss_mib()
            if rss > self.peak:
                self.peak, self.at_peak = rss, tree_processes()
            await asyncio.sleep(SAMPLE_S)


async def measure(
    path: Path, start_only: bool = False, search_every_s: float = 0.0
) -> dict[str, Any]:
    out: dict[str, Any] = {"repo": path.name}
    with tempfile.TemporaryDirectory(prefix="mcp-start-") as data:
        env = dict(os.environ, REPOCONTEXT_DATA_DIR=data, REPOCONTEXT_EMBEDDER="local")
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "repocontext.cli", "mcp", str(path)], env=env
        )
        sampler, stop = PeakSampler(), asyncio.Event()
        began = time.perf_counter()
        sampling = asyncio.create_task(sampler.run(stop))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out["initialize_s"] = time.perf_counter() - began
            out["first_answer_s"], out["first_path"] = await first_answer(session, began)
            out["coverage_s"] = (
                float("nan")
                if start_only
                else await full_coverage(session, began, search_every_s=search_every_s)
            )
            out["idle_rss_mib"] = tree_rss_mib()
            if not start_only:  # idle worker processes stop after their idle period
                await asyncio.sleep(SETTLE_S)  # the peak may come after coverage: an HNSW build
                out["settled_rss_mib"], out["processes"] = tree_rss_mib(), tree_processes()
                out["searched_path"] = await one_search(session)
                out["searched_rss_mib"] = tree_rss_mib()
                await asyncio.sleep(QUERY_SETTLE_S)
                out["query_settled_rss_mib"] = tree_rss_mib()
            out["peak_rss_mib"], out["at_peak"] = sampler.peak, sampler.at_peak
        stop.set()
        await sampling
    return out


async def repo_id(session: ClientSession) -> str:
    while True:
        listed = (await session.call_tool("repocontext_list_repos", {})).structuredContent or {}
        if listed.get("repositories"):
            return str(listed["repositories"][0]["repoId"])
        await asyncio.sleep(0.05)


async def first_answer(session: ClientSession, began: float) -> tuple[float, str]:
    repo = await repo_id(session)
    while True:
        result = await session.call_tool(
            "repocontext_search", {"repoId": repo, "query": "response body", "k": 5}
        )
        content = result.structuredContent or {}
        if not result.isError and content.get("hits"):
            return time.perf_counter() - began, str(content.get("retrievalPath"))
        await asyncio.sleep(0.05)


async def one_search(session: ClientSession) -> str:
    """One search of the first repository; its retrieval path."""
    repo = await repo_id(session)
    result = await session.call_tool(
        "repocontext_search", {"repoId": repo, "query": "response body", "k": 5}
    )
    return str((result.structuredContent or {}).get("retrievalPath"))


async def full_coverage(
    session: ClientSession, began: float, limit_s: float = 3600, search_every_s: float = 0.0
) -> float:
    searched = time.perf_counter()
    while time.perf_counter() - began < limit_s:
        if search_every_s and time.perf_counter() - searched >= search_every_s:
            await one_search(session)
            searched = time.perf_counter()
        listed = (await session.call_tool("repocontext_list_repos", {})).structuredContent or {}
        repos = listed.get("repositories") or [{}]
        coverage = repos[0].get("vectorCoverage") or {}
        if coverage.get("complete") and coverage.get("filesTotal"):
            return time.perf_counter() - began
        await asyncio.sleep(1.0)
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", type=Path, nargs="+")
    parser.add_argument("--start-only", action="store_true", help="stop after the first answer")
    parser.add_argument(
        "--search-every", type=float, default=0.0, metavar="S", help="search during the backfill"
    )
    args = parser.parse_args()
    for checkout in args.checkouts:
        r = asyncio.run(measure(checkout.expanduser(), args.start_only, args.search_every))
        print(
            f"{r['repo']}: initialize {r['initialize_s']:.1f} s, first answer with hits "
            f"{r['first_answer_s']:.1f} s ({r['first_path']}), full vector coverage "
            f"{r['coverage_s']:.1f} s, peak RSS (server + children) {r['peak_rss_mib']:.0f} MiB, "
            f"after backfill {r['idle_rss_mib']:.0f} MiB",
            flush=True,
        )
        print(f"  at the peak: {', '.join(r['at_peak'])}", flush=True)
        if "settled_rss_mib" in r:
            print(
                f"  idle {SETTLE_S:.0f} s after full coverage: {r['settled_rss_mib']:.0f} MiB "
                f"({', '.join(r['processes'])})",
                flush=True,
            )
            print(
                f"  after one search ({r['searched_path']}): {r['searched_rss_mib']:.0f} MiB, "
                f"{QUERY_SETTLE_S:.0f} s later {r['query_settled_rss_mib']:.0f} MiB",
                flush=True,
            )


if __name__ == "__main__":
    main()
