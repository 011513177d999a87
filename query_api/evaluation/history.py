"""`repocontext eval`: does semantic search help on *your* repository?

The repository's own git history is the test set, mined by the localisation benchmark's own
rules (tests/bench/localisation/mine.py): a commit that asks for a change (no merge, bot,
release, dependency bump, revert, docs/CI/test/style change or subject under 3 words;
query_api/evaluation/requests.py) and changed 1-5 source files becomes a case "its cleaned
subject and first body paragraph -> those files" (its tests, docs and generated files may
change with them but are never the answer: gold_paths.py). Every case runs through each
retrieval rung (keyword, and vector and hybrid when an embedder is bound) and the report gives
Recall@1/5/10 and MRR per rung. Deterministic (newest commits first, a fixed cap), bounded in
time, and cached per index state (cache_path).
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from query_api.errors import ServiceUnavailable
from query_api.evaluation.gold_paths import is_gold_path
from query_api.evaluation.requests import (
    MAX_GOLD,
    MIN_SUBJECT_WORDS,
    Commit,
    clean_query,
    skip_reason,
)
from query_api.evaluation.scoring import CaseScore, ScoreSummary, score_case, summarise

Rung = Callable[[str], Awaitable[list[str]]]  # query -> ranked repo-relative paths


class RungUnavailable(Exception):
    """A rung that cannot answer here (no embedder, no vectors yet): it is skipped and the
    reason reported, never scored as zeros that read like a measurement."""


@dataclass(frozen=True)
class Case:
    commit: str
    query: str
    files: tuple[str, ...]


@dataclass
class RungScore:
    rung: str
    cases: int
    recallAt1: float
    recallAt5: float
    recallAt10: float
    mrr: float


def head_commit(root: Path) -> str | None:
    """The checked-out commit; None without one. No git at all is said as such (it was
    "No such file or directory: git")."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
            timeout=30,
        )  # fmt: skip
    except FileNotFoundError as exc:
        raise ServiceUnavailable(
            "git is not installed here (not on PATH): eval mines the repository's git history"
        ) from exc
    return proc.stdout.strip() if proc.returncode == 0 else None


def shallow_refusal(root: Path) -> str | None:
    """Why ROOT's history cannot be mined, when it is a shallow clone (a CI checkout, `git
    clone --depth N`); None otherwise. Its oldest commit lists every file as added, a false
    case, and the history missing below it reads as "no usable commit" where fetching it is
    the remedy."""
    proc = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--is-shallow-repository"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    if proc.stdout.strip() != "true":
        return None
    return (
        f"{root} is a shallow clone (its history is cut short); eval mines the whole history: "
        "run `git fetch --unshallow` in it first"
    )


def _work_tree_prefix(root: Path) -> str | None:
    """ROOT's path inside its git work tree ("" at the top, "packages/api/" below it)."""
    proc = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--show-prefix"],
        capture_output=True, text=True, timeout=30, errors="replace",
    )  # fmt: skip
    return proc.stdout.strip("\n") if proc.returncode == 0 else None


def mine_cases(
    root: Path, indexed: set[str], *, max_cases: int = 200, max_commits: int = 5000
) -> list[Case]:
    """Cases from `git log` (newest first), keeping files that are indexed today.

    git names files from the top of its work tree and quotes non-ASCII names ("caf\\303\\251.py"):
    both missed every indexed path of a package in a monorepo, or of a file named in UTF-8.
    So names come unquoted, only commits touching ROOT are read (`--full-diff` keeps the
    whole commit's files, so the 1-5 file rule counts the commit), and the names are made
    relative to ROOT; a file outside it is never indexed here, so it is never kept. Which
    commits ask for a change and what they ask are the benchmark's rules (requests.py); the
    gold is the commit's source files (gold_paths.py)."""
    prefix = _work_tree_prefix(root)
    proc = subprocess.run(
        ["git", "-c", "core.quotePath=false", "-C", str(root), "log", "--no-merges",
         f"-n{max_commits}", "--format=%x00%H%x01%P%x01%an%x01%B%x02", "--name-only",
         "--diff-filter=AM", "--full-diff", "--full-history", "--", "."],
        capture_output=True, text=True, timeout=120, errors="replace",
    )  # fmt: skip
    if proc.returncode != 0 or prefix is None:
        return []
    cases: list[Case] = []
    for chunk in proc.stdout.split("\x00")[1:]:
        header, _, names = chunk.partition("\x02")
        sha, parents, author, message = [*header.split("\x01", 3), "", "", ""][:4]
        commit = Commit(sha, tuple(parents.split()), author, message, (), False)
        files = [n.strip() for n in names.splitlines() if is_gold_path(n.strip())]
        query = clean_query(message)
        if skip_reason(commit) is not None or len(query.split()) < MIN_SUBJECT_WORDS:
            continue
        if not 1 <= len(files) <= MAX_GOLD:
            continue
        kept = tuple(f[len(prefix) :] for f in files if f.startswith(prefix))
        kept = tuple(f for f in kept if f in indexed)
        if kept:
            cases.append(Case(commit=sha, query=query, files=kept))
        if len(cases) >= max_cases:
            break
    return cases


async def evaluate(
    cases: Sequence[Case],
    rungs: dict[str, Rung],
    *,
    budget_s: float = 60.0,
    on_progress: Callable[[int, int | None], None] | None = None,
) -> tuple[list[RungScore], dict[str, str]]:
    """Recall@1/5/10 and MRR of every rung over the cases it reached within the budget, and
    the rungs that could not answer (RungUnavailable) with the reason: those are left out
    whole, since a partial score would not compare with the others."""
    deadline = time.monotonic() + budget_s
    live = dict(rungs)
    skipped: dict[str, str] = {}
    scored: dict[str, list[CaseScore]] = {name: [] for name in rungs}
    for index, case in enumerate(cases, start=1):
        if time.monotonic() > deadline:
            break
        for name, rung in list(live.items()):
            try:
                ranked = await rung(case.query)
            except RungUnavailable as exc:
                skipped[name] = str(exc)
                del live[name], scored[name]
                continue
            scored[name].append(score_case(ranked, case.files))
        if on_progress is not None:
            on_progress(index, len(cases))
    return [_rung_score(name, summarise(rows)) for name, rows in scored.items()], skipped


def _rung_score(rung: str, summary: ScoreSummary) -> RungScore:
    return RungScore(
        rung=rung,
        cases=summary.cases,
        recallAt1=round(summary.recall_at_1, 4),
        recallAt5=round(summary.recall_at_5, 4),
        recallAt10=round(summary.recall_at_10, 4),
        mrr=round(summary.mrr_at_10, 4),
    )


# Bumped when mine_cases picks other cases for the same commit, or a rung ranks them
# otherwise: a result cached before is not served as this one's (2: names relative to ROOT,
# unquoted, b18c42b; 3: the benchmark's gold rule, tests and docs beside the source kept,
# never as gold; 4: the keyword rung ranks as the search tool does; 5: the benchmark's request
# rules, requests.py, and 1-5 gold files).
MINER_VERSION = 5


def cache_path(data_dir: Path, repo_id: str, state: str, rungs: Sequence[str]) -> Path:
    """Where the scores of the index in `state` (the commit, the case bound and the views'
    applied offsets: an uncommitted edit or an agent's note changes what search ranks, and
    a score cached by commit alone stood for an index that no longer was) are kept; one
    folder per repository, which holds only the latest (store_cached)."""
    name = f"{state}-m{MINER_VERSION}-{'-'.join(sorted(rungs))}.json"
    return data_dir / "eval" / repo_id / name


def load_cached(path: Path) -> list[RungScore] | None:
    try:
        return [RungScore(**row) for row in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError):
        return None


def store_cached(path: Path, scores: list[RungScore]) -> None:
    """Write the scores, and drop the repository's scores of earlier index states: each edit
    or note makes a new state, and those files would pile up for good."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps([asdict(s) for s in scores]))
    tmp.replace(path)
    for earlier in path.parent.glob("*.json"):
        if earlier != path:
            earlier.unlink(missing_ok=True)
