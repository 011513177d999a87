"""How long a hostile query or task keeps a call busy: long runs of one character or pair
after each question form the ladder reads, over a small indexed repository, in process:

    python -m tests.bench.hostile_queries [--chars 4096] [--task-chars 16384] [--top 10]

Every query form is read by regular expressions, and one tried from every place of a long
run (`a_a_a...`, `-----`, `\\\\\\`) reads on to the run's end each time: quadratic in what a
caller sends. Search queries are capped at 4,096 characters and bundle tasks at 16,384
(schemas), so the cost is bounded, but a few seconds a call is a lever for a hostile caller.
Prints the slowest search calls, the median and the slowest, then the same for bundle tasks
(2,000-token budget) of the runs alone. A figure, not a test: the suite times nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from schemas import tools as t
from schemas.bundle import ContextArgs
from tests.ingested import indexed_app

FILES = {
    "src/app.py": "class App:\n    def route(self, path):\n        raise ValueError(path)\n",
    "src/mask.go": "package ws\n\n// maskBytes masks.\nfunc maskBytes(b []byte) int { return 0 }\n",
    "tests/test_app.py": "def test_route():\n    assert App().route('/')\n",
    "src/index.ts": "export interface Options { retry: number }\nexport function create() {}\n",
    "README.md": "# App\nA router.\n",
}
RUNS = ["a", "a_", "aB", "a.", "a::", "-", "\\", ":", "\n", "(", "`", "#"]
FORMS = [
    "", "where is the ", "tests for ", "panic: ", "Error: ", "what calls ", "benchmarks for ",
    "where is ", "which files import ", "who implements ", "example of ", "docs for ",
    "where is the X config ", "fix ", "Traceback (most recent call last):\n", "at ",
    "FAILED ", "error[E0308]: ", "TypeError: ",
]  # fmt: skip
TRACES = [
    '  File "x.py", line 1, in f\n',
    "at com.x.Y.z(Y.java:1)\n",
    "src/app.py:12:5: ",
]


def queries(chars: int) -> list[str]:
    """Each form followed by each run, `chars` long in all, and three pasted traces."""
    out = [(form + run * chars)[:chars] for run in RUNS for form in FORMS]
    return out + [(trace * chars)[:chars] for trace in TRACES]


async def timed(calls: list[tuple[str, Coroutine[Any, Any, Any]]]) -> list[tuple[float, str]]:
    out = []
    for label, call in calls:
        start = time.perf_counter()
        await call
        out.append((time.perf_counter() - start, label))
    return out


def report(title: str, times: list[tuple[float, str]], top: int) -> None:
    times.sort(reverse=True)
    print(f"{title}: {len(times)} calls, median {statistics.median(s for s, _ in times):.3f} s")
    for seconds, label in times[:top]:
        print(f"  {seconds:7.3f} s  {label[:60]!r}")


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with indexed_app(Path(tmp), FILES) as app:
            searches = [
                (q, app.service.search(t.SearchArgs(repoId="repo", query=q)))
                for q in queries(args.chars)
            ]
            report(f"search, {args.chars:,} characters", await timed(searches), args.top)
            tasks = [
                (
                    run * 2,
                    app.services.bundle.context(
                        ContextArgs(
                            repoId="repo",
                            task=(run * args.task_chars)[: args.task_chars],
                            responseBudgetTokens=2000,
                        )
                    ),
                )
                for run in RUNS
            ]
            report(f"bundle, {args.task_chars:,} characters", await timed(tasks), args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chars", type=int, default=4096)
    parser.add_argument("--task-chars", type=int, default=16_384)
    parser.add_argument("--top", type=int, default=10)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
