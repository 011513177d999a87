"""Which commits are change requests, and the request each one asks: the rules the
localisation benchmark mines its cases by (tests/bench/localisation/mine.py) and `repocontext
eval` mines a user's history by (history.py), so the per-user figure is the same scorer on
the same kind of case.

query = the subject (plus the first body paragraph, the whole capped at ~60 words) with issue
numbers, conventional-commit scopes, tags and trailers removed. Commits that are no change
request are skipped: merges, bots, dependency bumps, releases, reverts, pure renames,
documentation, CI, test and style changes, and subjects of fewer than 3 words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
