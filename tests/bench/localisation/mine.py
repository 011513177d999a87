"""Localisation cases mined from a repository's history: a commit's message asks, its files answer.

query = the subject (plus the first body paragraph, the whole capped at ~60 words) with issue
numbers, conventional-commit scopes, tags and trailers removed; gold = the source files the
commit changed (not tests, docs, examples, config or generated files) that still exist at the
pinned head. Commits that are no change request are skipped: merges, bots, dependency bumps,
releases, reverts, pure renames, ones with more than 5 gold files or none, and subjects of
fewer than 3 words. Newest first, so the cases describe the code as it is at the pin.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from query_api.evaluation.gold_paths import is_gold_path

MAX_GOLD = 5
MAX_QUERY_WORDS = 60
MIN_SUBJECT_WORDS = 3

_BOT_AUTHOR = re.compile(r"\[bot\]|dependabot|renovate|greenkeeper|github-actions|snyk-bot", re.I)
_SKIP_SUBJECT = re.compile(
    r"^(revert\b|merge\b|release\b|bump\b|version\b|prepare\b|publish\b|v?\d+\.\d+(\.\d+)?\b"
    r"|changelog\b|update (the )?changelog|(chore|build|fix|ci)\((deps|deps-dev|release)\)"
    r"|(upgrade|update|bump)\b[^,;]* to v?\d+(\.\d+)*\s*$"
    r"|(update|upgrade) (dependency|dependencies|deps)\b)",
    re.IGNORECASE,
)
_NON_CHANGE_TYPES = frozenset({"docs", "doc", "ci", "test", "tests", "style", "build", "release"})
_TYPE_PREFIX = re.compile(r"^(?P<type>[a-z]+)(\([^)]*\))?!?:\s*", re.IGNORECASE)
_TAG_PREFIX = re.compile(r"^(\[[^\]]{1,30}\]\s*)+")
_EMOJI_PREFIX = re.compile(r"^(:[a-z0-9_+-]+:\s*|[^\w\s\[(`'\"]+\s*)+")  # gitmoji, `🐛 fix: `
_ISSUE_REF = re.compile(
    r"\s*\((?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s+)?"
    r"(?:[\w.-]+/[\w.-]+)?#\d+(?:\s*,\s*#\d+)*\)"
    r"|\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s*:?\s+(?:[\w.-]+/[\w.-]+)?#\d+"
    r"|(?<![\w/])(?:GH-|gh-)?#\d+\b|\[[A-Z][A-Z0-9]+-\d+\]",
    re.IGNORECASE,
)
_TRAILER = re.compile(r"^[A-Z][\w-]*(?:-by|-authored-by)?:\s|^(Signed-off|Co-authored|Reviewed|"
                      r"Acked|Tested|Reported|Suggested|Helped|Change-Id|Closes|Fixes|Refs)\b",
                      re.IGNORECASE)  # fmt: skip
_URL = re.compile(r"\s*<?https?://\S+")
_BODY_NOISE = re.compile(r"^(\s*[-*#|<>`=]|\s*this reverts commit|\s*https?://\S+\s*$)", re.I)


@dataclass(frozen=True)
class Case:
    repo: str
    commit: str
    query: str
    gold: tuple[str, ...]
    verbatim: str = ""  # the same request as a person asks it: subject + first paragraph


@dataclass(frozen=True)
class Commit:
    sha: str
    parents: tuple[str, ...]
    author: str
    message: str
    changes: tuple[tuple[str, str], ...]  # (status letter, path at this commit)
    pure_rename: bool


def clean_subject(subject: str) -> str:
    text = _EMOJI_PREFIX.sub("", subject.strip())
    for _ in range(2):  # `[core] fix(x): ...` carries both kinds of prefix
        text = _TAG_PREFIX.sub("", _TYPE_PREFIX.sub("", text, count=1)).strip()
    text = _ISSUE_REF.sub("", _URL.sub("", text))
    return re.sub(r"\s+", " ", text).strip(" .,:;-")


def first_paragraph(body: str) -> str:
    """The first prose paragraph of a body; lists, headings, templates and trailers are not."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body.strip()) if p.strip()]
    if not paragraphs:
        return ""
    lines = paragraphs[0].splitlines()
    if any(_TRAILER.match(line) or _BODY_NOISE.match(line) for line in lines):
        return ""
    return _ISSUE_REF.sub("", _URL.sub("", " ".join(line.strip() for line in lines)))


def clean_query(message: str) -> str:
    """Subject plus first body paragraph, at most MAX_QUERY_WORDS words."""
    subject, _, body = message.strip().partition("\n")
    words = clean_subject(subject).split()
    words += first_paragraph(body).split()[: max(0, MAX_QUERY_WORDS - len(words))]
    return " ".join(words)


def verbatim_query(message: str) -> str:
    """The subject and the body's first paragraph as written, scopes, issue numbers, emoji
    and all, with line breaks as spaces: how a held-out judge that asks commit messages
    verbatim puts the same request."""
    subject, _, body = message.strip().partition("\n")
    paragraphs = [p for p in re.split(r"\n\s*\n", body.strip()) if p.strip()]
    return " ".join(" ".join([subject, *paragraphs[:1]]).split())


def change_type(subject: str) -> str:
    match = _TYPE_PREFIX.match(_EMOJI_PREFIX.sub("", subject.strip()))
    return match.group("type").lower() if match else ""


def skip_reason(commit: Commit) -> str | None:
    """Why a commit is no localisation case (before its files are looked at), or None."""
    subject = commit.message.strip().partition("\n")[0]
    if len(commit.parents) > 1:
        return "merge"
    if _BOT_AUTHOR.search(commit.author):
        return "bot"
    bare = clean_subject(subject)
    if _SKIP_SUBJECT.match(subject.strip()) or _SKIP_SUBJECT.match(bare):
        return "release/dependency/revert"
    if change_type(subject) in _NON_CHANGE_TYPES:
        return "non-change type"
    if commit.pure_rename:
        return "pure rename"
    if len(bare.split()) < MIN_SUBJECT_WORDS:
        return "short subject"
    return None


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
