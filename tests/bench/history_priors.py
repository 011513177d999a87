"""Would a workspace's git history rank better? The issue's history lever (recency, co-change),
measured offline on the localisation benchmark's tuning half:

    python -m tests.bench.history_priors [--repos click,gin] [--ranked FILE]

The benchmark indexes checkouts without `.git`, so search never sees history. Here each case
is given the history a user would have had when asking it: the commits before the case's own
(its parent and older, no merges, from the pinned mirror; a commit touching more than
MAX_FILES files is skipped as a sweep). The default system's top 50 (path, score) per case
(the harness's cached `default` index; `--ranked` reuses a file this wrote before) are
re-ordered by each prior and scored as `run` scores them. Priors, each a factor on a file's
score (1 where history says nothing):

- frequency: 1 + a * ln(1 + the commits among the last K that touched the file);
- recency: 1 + a * 0.5 ** (commits since the file last changed / half-life);
- co-change: 1 + a * the mean, over the top `seeds` other files, of the share of a seed's
  commits among the last K that touched the file too.

The tuning half only: the result decides whether the lever is built.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import subprocess
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from query_api.evaluation.scoring import score_case, summarise
from schemas import tools as t
from tests.bench.localisation.cases import read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, cache_key, checkout
from tests.bench.localisation.repos import DEFAULT_MIRRORS, PinnedRepo, require_mirror, select

MAX_FILES = 20  # a commit touching more files is a sweep (a rename, a format run)
TOP_K = 50

Ranked = list[tuple[str, float]]
Prior = Callable[[dict[str, Any], str], float]


@dataclass
class History:
    """One case's history: per file the positions (0 = just before the case) of the commits
    among the last K that touched it."""

    touched: dict[str, list[int]]

    def count(self, path: str) -> int:
        return len(self.touched.get(path, ()))

    def age(self, path: str) -> int | None:
        seen = self.touched.get(path)
        return seen[0] if seen else None


def repo_log(git_dir: Path, head: str) -> list[tuple[str, list[str]]]:
    """(commit, files) newest first, no merges; a shallow mirror's log stops where its
    objects do."""
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "log", "--no-merges", "--format=@%H", "--name-only",
         head],
        capture_output=True, text=True, check=False,
    ).stdout  # fmt: skip
    commits: list[tuple[str, list[str]]] = []
    for line in out.splitlines():
        if line.startswith("@"):
            commits.append((line[1:], []))
        elif line.strip() and commits:
            commits[-1][1].append(line.strip())
    return commits


def history_before(log: list[tuple[str, list[str]]], commit: str, k: int) -> History | None:
    at = next((i for i, (h, _) in enumerate(log) if h == commit), None)
    if at is None:
        return None
    touched: dict[str, list[int]] = defaultdict(list)
    for position, (_, files) in enumerate(log[at + 1 : at + 1 + k]):
        if len(files) <= MAX_FILES:
            for path in files:
                touched[path].append(position)
    return History(dict(touched))


async def ranked_cases(repos: list[PinnedRepo]) -> list[dict[str, Any]]:
    """The default system's top 50 (path, score) for every case of `repos`."""
    from tests.bench.localisation.system import RepocontextSystem

    cases = read_cases()
    rows: list[dict[str, Any]] = []
    for repo in repos:
        root = checkout(repo, DEFAULT_MIRRORS, DEFAULT_CACHE)
        data_dir = DEFAULT_CACHE / "systems" / "local" / cache_key(repo)
        system = await RepocontextSystem.open(root, data_dir, embedder="local")
        try:
            for case in (c for c in cases if c.repo == repo.name):
                args = t.SearchArgs(repoId=system.repo_id, query=case.query[:4096], k=TOP_K)
                result = await system.app.service.search(args)
                ranked: Ranked = []
                for hit in result.hits:
                    path = hit.entry.path
                    if hit.entry.kind in ("File", "Symbol") and path and path not in dict(ranked):
                        ranked.append((path, hit.score))
                rows.append({"repo": repo.name, "commit": case.commit, "gold": list(case.gold),
                             "ranked": ranked})  # fmt: skip
        finally:
            await system.close()
    return rows


def scored(rows: list[dict[str, Any]], prior: Prior) -> str:
    scores = []
    for row in rows:
        order = sorted(row["ranked"], key=lambda ps: -ps[1] * prior(row, ps[0]))
        scores.append(score_case([p for p, _ in order], row["gold"]))
    s = summarise(scores)
    return f"{s.recall_at_1:.3f} / {s.recall_at_5:.3f} / {s.recall_at_10:.3f} / {s.mrr_at_10:.3f}"


def priors(histories: dict[tuple[str, int], History | None]) -> dict[str, Prior]:
    out: dict[str, Prior] = {"none": lambda row, path: 1.0}
    for k in (100, 300, 1000):
        for a in (0.05, 0.1, 0.2):
            out[f"frequency K={k} a={a}"] = _frequency(histories, k, a)
    for a in (0.1, 0.2):
        for half in (20, 100):
            out[f"recency K=1000 a={a} half-life={half}"] = _recency(histories, a, half)
    for k in (300, 1000):
        for seeds in (1, 3):
            for a in (0.1, 0.2):
                out[f"co-change K={k} seeds={seeds} a={a}"] = _cochange(histories, k, seeds, a)
    return out


def _frequency(histories: dict[tuple[str, int], History | None], k: int, a: float) -> Prior:
    def prior(row: dict[str, Any], path: str) -> float:
        history = histories[(row["commit"], k)]
        return 1.0 if history is None else 1 + a * math.log1p(history.count(path))

    return prior


def _recency(histories: dict[tuple[str, int], History | None], a: float, half: int) -> Prior:
    def prior(row: dict[str, Any], path: str) -> float:
        history = histories[(row["commit"], 1000)]
        age = history.age(path) if history is not None else None
        return 1.0 if age is None else 1 + a * 0.5 ** (age / half)

    return prior


def _cochange(
    histories: dict[tuple[str, int], History | None], k: int, seeds: int, a: float
) -> Prior:
    def prior(row: dict[str, Any], path: str) -> float:
        history = histories[(row["commit"], k)]
        mine = set(history.touched.get(path, ())) if history is not None else set()
        if history is None or not mine:
            return 1.0
        others = [p for p, _ in row["ranked"][:seeds] if p != path]
        shares = [
            len(mine & set(theirs)) / len(theirs)
            for p in others
            if (theirs := history.touched.get(p))
        ]
        return 1 + a * sum(shares) / max(1, len(others))

    return prior


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default="", help="comma-separated tuning repositories")
    parser.add_argument("--ranked", type=Path, help="the top 50s a run wrote (else ranked now)")
    args = parser.parse_args()
    names = set(args.repos.split(",")) if args.repos else None
    repos = [r for r in select("tuning") if names is None or r.name.split("/")[1] in names]
    if args.ranked is not None and args.ranked.exists():
        rows = json.loads(args.ranked.read_text())
    else:
        rows = asyncio.run(ranked_cases(repos))
        if args.ranked is not None:
            args.ranked.write_text(json.dumps(rows))
    logs = {r.name: repo_log(require_mirror(r, DEFAULT_MIRRORS), r.commit) for r in repos}
    histories = {
        (row["commit"], k): history_before(logs[row["repo"]], row["commit"], k)
        for row in rows
        for k in (100, 300, 1000)
    }
    print(f"{len(rows)} cases; R@1 / R@5 / R@10 / MRR@10\n")
    print("| prior | tuning half |\n|---|---|")
    for name, prior in priors(histories).items():
        print(f"| {name} | {scored(rows, prior)} |", flush=True)


if __name__ == "__main__":
    main()
