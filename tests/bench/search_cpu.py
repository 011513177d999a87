"""CPU per keyword search in process: the whole service call, as one MCP search runs it.

    python -m tests.bench.search_cpu CHECKOUT DATA_DIR [--rounds 2] [--queries 200]
        [--answers OUT.json]

Opens CHECKOUT on an indexed data directory (keyword only; give each tree its own copy or
run trees in turns: a data directory has one owner), waits until the in-memory postings are
built and the process is quiet, then runs the localisation benchmark's change requests
through `service.search` (k=10) `--rounds` times. Prints per round the process's CPU per
search minus its idle rate (the pollers of an idle process), and the wall p50/p95/p99 over
all rounds with the load. CPU per search moves far less with the load than the times do, so
two trees compare on it (`git worktree` of each, run in turns with the same arguments).
`--answers` writes the first round's answers (structured content but freshness), so two
trees' answers can be compared byte for byte.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import time
from pathlib import Path

from schemas import tools as t
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from tests.bench.localisation.cases import CASES_FILE, read_cases
from tests.bench.localisation.system import RepocontextSystem
from tests.bench.search_latency import pct

QUIET_CPU_S = 0.3  # process CPU over QUIET_WINDOW_S below which it is idle
QUIET_WINDOW_S = 2.0
QUIET_WINDOWS = 3
IDLE_SAMPLE_S = 3.0


def cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


async def settle(system: RepocontextSystem) -> float:
    """Until the postings are built and the process is quiet; returns its idle CPU rate."""
    views = system.app.views
    for mirror in (views.mirror(CONTENT_FIELDS), views.mirror(SYMBOL_FIELDS)):
        while views.read(mirror.current) is None:
            mirror.wait_built(600)
    quiet = 0
    while quiet < QUIET_WINDOWS:
        before = cpu_s()
        await asyncio.sleep(QUIET_WINDOW_S)
        quiet = quiet + 1 if cpu_s() - before < QUIET_CPU_S else 0
    before = cpu_s()
    await asyncio.sleep(IDLE_SAMPLE_S)
    return (cpu_s() - before) / IDLE_SAMPLE_S


async def measure(args: argparse.Namespace) -> None:
    queries = [case.query for case in read_cases(CASES_FILE)][: args.queries]
    system = await RepocontextSystem.open(args.checkout, args.data_dir)
    service = system.app.service
    try:
        for query in queries[:10]:  # the first searches start the postings' build
            await service.search(t.SearchArgs(repoId=system.repo_id, query=query, k=10))
        idle = await settle(system)
        answers: list[object] = []
        rounds: list[float] = []
        walls: list[float] = []
        for n in range(args.rounds):
            started_cpu, started = cpu_s(), time.perf_counter()
            for query in queries:
                t0 = time.perf_counter()
                found = await service.search(t.SearchArgs(repoId=system.repo_id, query=query, k=10))
                walls.append((time.perf_counter() - t0) * 1000)
                if n == 0:
                    content = found.model_dump(mode="json", exclude_none=True)
                    content.pop("freshness", None)
                    answers.append({"query": query, "answer": content})
            spent = cpu_s() - started_cpu - idle * (time.perf_counter() - started)
            rounds.append(spent / len(queries) * 1000)
        cells = " / ".join(f"{pct(walls, q):.1f}" for q in (0.5, 0.95, 0.99))
        print(
            f"{len(queries)} queries x {args.rounds}: CPU ms/search per round "
            f"{', '.join(f'{r:.1f}' for r in rounds)} (median {statistics.median(rounds):.1f}); "
            f"idle {idle * 1000:.0f} ms/s; wall p50 / p95 / p99 {cells} ms; "
            f"load {os.getloadavg()[0]:.1f}"
        )
        if args.answers:
            args.answers.write_text(json.dumps(answers))
    finally:
        await system.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("checkout", type=Path)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--answers", type=Path)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
