"""Localisation cases mined from a repository's history: a commit's message asks, its files answer.

The request rules (which commits ask for a change, and the query each asks) are shared with
`repocontext eval` (query_api/evaluation/requests.py), and so is the gold rule (gold_paths.py):
gold = the source files the commit changed (not tests, docs, examples, config or generated
files) that still exist at the pinned head, at most 5. Newest first, so the cases describe the
code as it is at the pin.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from query_api.evaluation.gold_paths import is_gold_path
from query_api.evaluation.requests import (
    MAX_GOLD,
    MIN_SUBJECT_WORDS,
    Commit,
    clean_query,
    skip_reason,
    verbatim_query,
)


@dataclass(frozen=True)
class Case:
    repo: str
    commit: str
    query: str
    gold: tuple[str, ...]
    verbatim: str = ""  # the same request as a person asks it: subject + first paragraph


def case_of(repo: str, commit: Commit, at_head: set[str]) -> Case | None:
    if skip_reason(commit) is not None:
        return None
    changed = sorted({path for status, path in commit.changes if status != "D"})
    source = [p for p in changed if is_gold_path(p)]
    if len(source) > MAX_GOLD:
        return None
    gold = tuple(p for p in source if p in at_head)
    query = clean_query(commit.message)
    if not gold or len(query.split()) < MIN_SUBJECT_WORDS:
        return None
    return Case(repo, commit.sha, query, gold, verbatim_query(commit.message))


def _git(git_dir: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(git_dir), *args], capture_output=True, text=True, errors="replace"
    )
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:2])} in {git_dir} failed: {proc.stderr.strip()}")
    return proc.stdout


def files_at(git_dir: Path, pin: str) -> set[str]:
    return set(_git(git_dir, "ls-tree", "-r", "--name-only", pin).splitlines())


def _parse_changes(lines: list[str]) -> tuple[tuple[tuple[str, str], ...], bool]:
    changes: list[tuple[str, str]] = []
    renames = 0
    for line in lines:
        fields = line.split("\t")
        if len(fields) < 2 or not fields[0]:
            continue
        status = fields[0][0]
        renames += status == "R"
        changes.append((status, fields[-1]))
    return tuple(changes), bool(changes) and renames == len(changes)


def read_commits(git_dir: Path, pin: str) -> Iterator[Commit]:
    """Every commit reachable from the pin, newest first, with its name-status list. Read as
    git writes it, so a miner that has its cases stops git before the old history: rename
    detection there may need blobs a partial mirror lacks."""
    command = ["git", "-C", str(git_dir), "log", "-M", "--name-status",
               "--format=%x1e%H%x1f%P%x1f%an <%ae>%x1f%B%x1f", pin]  # fmt: skip
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace"
    ) as proc:
        assert proc.stdout is not None
        pending = ""
        try:
            for line in proc.stdout:
                if line.startswith("\x1e") and pending:
                    yield _commit(pending)
                    pending = ""
                pending += line
            if proc.wait() != 0:
                stderr = proc.stderr.read().strip() if proc.stderr else ""
                raise RuntimeError(f"git log -M in {git_dir} failed: {stderr}")
            if pending:
                yield _commit(pending)
        finally:
            proc.kill()


def _commit(record: str) -> Commit:
    sha, parents, author, message, rest = record[1:].split("\x1f", 4)
    changes, pure_rename = _parse_changes(rest.strip().splitlines())
    return Commit(sha, tuple(parents.split()), author, message, changes, pure_rename)


def mine_repo(repo: str, git_dir: Path, pin: str, *, limit: int = 30) -> list[Case]:
    """Up to `limit` cases, newest first; a query asked twice keeps its newest commit."""
    at_head = files_at(git_dir, pin)
    cases: list[Case] = []
    seen: set[str] = set()
    for commit in read_commits(git_dir, pin):
        case = case_of(repo, commit, at_head)
        if case is None or case.query.lower() in seen:
            continue
        seen.add(case.query.lower())
        cases.append(case)
        if len(cases) >= limit:
            break
    return cases
