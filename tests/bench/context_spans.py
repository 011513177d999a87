"""Do a context bundle's spans hold the code a change request changed? Over the localisation
benchmark's cases, line by line:

    python -m tests.bench.context_spans [--split tuning] [--repos click,gin] \
        [--budgets 8192,4000] [--out spans.json]

A case's gold lines, per gold file, are the lines its commit added (`git show -U0`, at least 12
characters with a letter or digit) found again, stripped, in the file at the pinned head (a line
the head holds more than twice says nothing and is left out); a gold file none of whose added
lines survive to the head is left out. Each case's query is asked of repocontext_context at
each budget (the `default` system the localisation run builds, vectors complete) and every
packed entry of a gold file is scored: a file sent whole holds all its lines; a sliced one,
the lines its span units carry. Prints per budget the gold entries packed, how many are sliced,
their mean share of gold lines sent (line recall), the share holding at least one, and the mean
lines they send.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from schemas.bundle import BundleEntry, ContextArgs
from tests.bench.localisation.cases import read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, cache_key, checkout
from tests.bench.localisation.mine import Case
from tests.bench.localisation.repos import (
    DEFAULT_MIRRORS,
    SPLITS,
    PinnedRepo,
    require_mirror,
    select,
)

if TYPE_CHECKING:
    from tests.bench.localisation.system import RepocontextSystem

MIN_LINE_CHARS = 12  # shorter added lines (`}`, `return nil`) are everywhere
MAX_REPEATS = 2  # a line the head file holds more often than this says nothing


@dataclass(frozen=True)
class Scored:
    repo: str
    commit: str
    budget: int
    path: str
    whole: bool
    recall: float  # share of the file's gold lines sent
    gold: int
    sent: int | None  # lines the spans carry; None when the file was sent whole


def added_lines(git_dir: Path, commit: str, path: str) -> set[str]:
    shown = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", "--format=", "--unified=0", commit, "--", path],
        capture_output=True,
        text=True,
        errors="replace",
        check=True,
    ).stdout
    out = set()
    for line in shown.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            text = line[1:].strip()
            if len(text) >= MIN_LINE_CHARS and any(c.isalnum() for c in text):
                out.add(text)
    return out


def gold_lines(root: Path, path: str, added: set[str]) -> set[int]:
    try:
        lines = (root / path).read_text(errors="replace").split("\n")
    except OSError:
        return set()
    seen = collections.Counter(line.strip() for line in lines)
    return {
        number
        for number, line in enumerate(lines, start=1)
        if line.strip() in added and seen[line.strip()] <= MAX_REPEATS
    }


def case_gold_lines(root: Path, git_dir: Path, case: Case) -> dict[str, set[int]]:
    """Each gold file of `case` with gold lines, and those lines."""
    golds = {}
    for path in case.gold:
        lines = gold_lines(root, path, added_lines(git_dir, case.commit, path))
        if lines:
            golds[path] = lines
    return golds


def lines_sent(entry: BundleEntry) -> set[int] | None:
    """The lines an entry carries; None when it is the whole file."""
    spans = [u for u in entry.units if u.kind == "span" and u.startLine]
    if spans:
        return {n for u in spans for n in range(u.startLine or 0, (u.endLine or 0) + 1)}
    if entry.contentHash:
        return None
    if entry.startLine:
        return set(range(entry.startLine, (entry.endLine or entry.startLine) + 1))
    return set()  # a pointer or an outline: no lines of code


async def open_default(
    repo: PinnedRepo, mirrors: Path, cache: Path
) -> tuple[Path, Path, RepocontextSystem]:
    """(checkout, git directory, the `default` system the localisation run builds)."""
    from tests.bench.localisation.system import RepocontextSystem

    root = checkout(repo, mirrors, cache)
    git_dir = require_mirror(repo, mirrors)
    data_dir = cache / "systems" / "local" / cache_key(repo)
    return root, git_dir, await RepocontextSystem.open(root, data_dir, embedder="local")


async def score_repo(
    repo: PinnedRepo, cases: list[Case], budgets: list[int], mirrors: Path, cache: Path
) -> list[Scored]:
    root, git_dir, system = await open_default(repo, mirrors, cache)
    out: list[Scored] = []
    try:
        for case in cases:
            golds = case_gold_lines(root, git_dir, case)
            for budget in budgets if golds else []:
                args = ContextArgs(
                    repoId=system.repo_id, task=case.query, responseBudgetTokens=budget
                )
                answer = await system.app.services.bundle.context(args)
                for entry in answer.entries:
                    gold = golds.get(entry.path)
                    if not gold:
                        continue
                    sent = lines_sent(entry)
                    recall = 1.0 if sent is None else len(gold & sent) / len(gold)
                    size = None if sent is None else len(sent)
                    out.append(
                        Scored(
                            repo.name, case.commit, budget, entry.path, sent is None, recall,
                            len(gold), size,
                        )
                    )  # fmt: skip
    finally:
        await system.app.close()
    return out


def summary(rows: list[Scored], budget: int) -> str:
    at = [r for r in rows if r.budget == budget]
    sliced = [r for r in at if not r.whole]
    if not sliced:
        return f"budget {budget}: {len(at)} gold entries, none sliced"
    recall = sum(r.recall for r in sliced) / len(sliced)
    any_line = sum(r.recall > 0 for r in sliced) / len(sliced)
    lines = sum(r.sent or 0 for r in sliced) / len(sliced)
    return (
        f"budget {budget}: {len(at)} gold entries, {len(sliced)} sliced: line recall "
        f"{recall:.3f}, any gold line {any_line:.3f}, {lines:.1f} lines sent"
    )


async def run(args: argparse.Namespace) -> None:
    repos = select(args.split, args.repos.split(",") if args.repos else None)
    budgets = [int(b) for b in args.budgets.split(",")]
    cases = read_cases()
    rows: list[Scored] = []
    for repo in repos:
        mine = [c for c in cases if c.repo == repo.name]
        found = await score_repo(repo, mine, budgets, args.mirrors, args.cache)
        rows += found
        print(f"{repo.name}: {len(found)} gold entries scored", flush=True)
    for budget in budgets:
        print(summary(rows, budget))
    if args.out:
        args.out.write_text(json.dumps([asdict(r) for r in rows]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="tuning", choices=[*SPLITS, "all"])
    parser.add_argument("--repos", default="", help="comma-separated repository names")
    parser.add_argument("--budgets", default="8192,4000")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--out", type=Path, default=None)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
