"""Do search hits point at the lines a change request changed? Over the localisation
benchmark's cases:

    python -m tests.bench.hit_lines [--split tuning] [--repos click,gin] [--out lines.json]

Each case's query is asked of repocontext_search (k=10, the `default` system the localisation
run builds, vectors complete). Every top-10 file hit on a gold file with gold lines (the lines
its commit added that survive at the pinned head: tests/bench/context_spans.py's rule) is
scored: whether the hit's `startLine`-`endLine` range holds a gold line, whether one of its
snippet lines is one, and the range's length. Prints the gold hits scored, the share whose
range holds a gold line, the share whose snippet shows one, and the mean range length.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from schemas import tools as t
from tests.bench.context_spans import case_gold_lines, open_default
from tests.bench.localisation.cases import read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE
from tests.bench.localisation.mine import Case
from tests.bench.localisation.repos import (
    DEFAULT_MIRRORS,
    SPLITS,
    PinnedRepo,
    select,
)

K = 10
_SNIPPET_LINE = re.compile(r"^(\d+): ", re.MULTILINE)


@dataclass(frozen=True)
class Scored:
    repo: str
    commit: str
    path: str
    rank: int
    in_range: bool  # the hit's range holds a gold line
    in_snippet: bool  # one of its snippet lines is a gold line
    lines: int  # the range's length (0: the hit names no lines)
    start: int | None
    end: int | None
    gap: int | None  # lines from the range to the nearest gold line (0: inside it)


def gap_to(start: int | None, end: int | None, gold: set[int]) -> int | None:
    """Lines between the range and the gold line nearest it (0: a gold line is inside)."""
    if not start or not end or not gold:
        return None
    return min(max(start - n, n - end, 0) for n in gold)


def score_hit(hit: t.SearchHit, gold: set[int]) -> tuple[bool, bool, int]:
    start, end = hit.startLine, hit.endLine
    if not start or not end:
        return False, False, 0
    shown = {int(n) for n in _SNIPPET_LINE.findall(hit.snippet or "")}
    return any(start <= n <= end for n in gold), bool(shown & gold), end - start + 1


async def score_repo(
    repo: PinnedRepo, cases: list[Case], mirrors: Path, cache: Path
) -> list[Scored]:
    root, git_dir, system = await open_default(repo, mirrors, cache)
    out: list[Scored] = []
    try:
        for case in cases:
            golds = case_gold_lines(root, git_dir, case)
            if not golds:
                continue
            args = t.SearchArgs(repoId=system.repo_id, query=case.query[:4096], k=K)
            result = await system.app.service.search(args)
            for rank, hit in enumerate(result.hits, start=1):
                gold = golds.get(hit.entry.path or "")
                if hit.entry.kind != "File" or not gold:
                    continue
                in_range, in_snippet, size = score_hit(hit, gold)
                start, end = hit.startLine, hit.endLine
                out.append(
                    Scored(repo.name, case.commit, hit.entry.path or "", rank, in_range,
                           in_snippet, size, start, end, gap_to(start, end, gold))
                )  # fmt: skip
    finally:
        await system.app.close()
    return out


def summary(rows: list[Scored]) -> str:
    if not rows:
        return "no gold hits scored"
    n = len(rows)
    in_range = sum(r.in_range for r in rows) / n
    in_snippet = sum(r.in_snippet for r in rows) / n
    lines = sum(r.lines for r in rows) / n
    return (
        f"{n} gold hits: range holds a gold line {in_range:.3f}, snippet shows one "
        f"{in_snippet:.3f}, {lines:.1f} lines a range"
    )


async def run(args: argparse.Namespace) -> None:
    repos = select(args.split, args.repos.split(",") if args.repos else None)
    cases = read_cases()
    rows: list[Scored] = []
    for repo in repos:
        found = await score_repo(
            repo, [c for c in cases if c.repo == repo.name], args.mirrors, args.cache
        )
        rows += found
        print(f"{repo.name}: {summary(found)}", flush=True)
    print(summary(rows))
    if args.out:
        args.out.write_text(json.dumps([asdict(r) for r in rows]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="tuning", choices=[*SPLITS, "all"])
    parser.add_argument("--repos", default="", help="comma-separated repository names")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--out", type=Path, default=None)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
