"""Patterns from repositories and callers, compiled for RE2: matching time is linear, always.

A `.gitignore` line or an include/exclude glob is untrusted input. Python's `re` backtracks, so
`********************x` (pathspec's translation holds twenty `[^/]*` in a row) takes
exponential time on a long name while holding the GIL: the whole server freezes. RE2 never
backtracks: its matching time is bounded by pattern size x path length. On top of that every
pattern is bounded in length (MAX_PATTERN_CHARS), runs of `*` collapse to `**` (git reads any
run of two or more stars exactly like `**`), and the number of rules per `.gitignore` and per
repository is capped, so the cost of deciding one path has a fixed ceiling.
"""

from __future__ import annotations

import re
from typing import Protocol

import re2
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from streams.errors import StreamsError

MAX_PATTERN_CHARS = 1024  # a longer glob or .gitignore line is refused / dropped
MAX_RULES_PER_FILE = 10_000  # .gitignore lines that count; later ones are dropped
MAX_RULES_PER_REPO = 50_000  # across every .gitignore of one repository
MAX_GLOBS = 256  # include/exclude globs per repository, each list

_STAR_RUN = re.compile(r"\*{3,}")
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a refused pattern is reported by the caller, not on stderr
_OPTIONS.max_mem = 8 << 20  # a pattern whose program exceeds this does not compile


class PatternError(StreamsError, ValueError):
    """A pattern that is not accepted: too long, or not compilable in linear time."""


class PatternMatch(Protocol):
    def group(self, index: int) -> str | None: ...

    def end(self, index: int = ...) -> int: ...


class LinearPattern(Protocol):
    """What RE2's compiled pattern offers (google-re2 ships no type information)."""

    @property
    def pattern(self) -> str: ...

    @property
    def groupindex(self) -> dict[str, int]: ...

    def search(self, text: str) -> PatternMatch | None: ...

    def fullmatch(self, text: str) -> PatternMatch | None: ...


def collapse_stars(pattern: str) -> str:
    """Runs of three or more unescaped `*` become `**` (the same set of paths for git)."""
    if "***" not in pattern:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":  # an escaped character is never part of a run
            out.append(pattern[i : i + 2])
            i += 2
            continue
        run = _STAR_RUN.match(pattern, i)
        if run is not None:
            out.append("**")
            i = run.end()
            continue
        out.append(pattern[i])
        i += 1
    return "".join(out)


def compile_linear(regex: str) -> LinearPattern:
    """Compile a regular expression with RE2; PatternError when RE2 refuses it."""
    try:
        compiled: LinearPattern = re2.compile(regex, _OPTIONS)
    except (re2.error, UnicodeEncodeError) as exc:
        raise PatternError(f"cannot be matched in linear time: {exc}") from exc
    return compiled


def check_length(pattern: str) -> None:
    if len(pattern) > MAX_PATTERN_CHARS:
        raise PatternError(f"is {len(pattern)} characters long (at most {MAX_PATTERN_CHARS})")


def gitignore_regex(rule: str) -> tuple[LinearPattern, bool] | None:
    """(pattern, ignore) for one root-level `.gitignore` rule; None when it matches nothing.

    Uses pathspec's translation of git's pattern language (escapes, classes, `**`, anchoring,
    dir-only) and compiles the result with RE2 instead of Python's backtracking engine.
    Raises PatternError for a rule that is too long or not compilable.
    """
    check_length(rule)
    try:
        regex, include = GitIgnoreSpecPattern.pattern_to_regex(collapse_stars(rule))
    except ValueError as exc:  # pathspec's GitIgnorePatternError: not a git pattern
        raise PatternError(f"is not a git pattern: {exc}") from exc
    if include is None or regex is None:
        return None
    return compile_linear(regex), include


def normalize_glob(glob: str) -> str:
    glob = glob.strip().removeprefix("./").lstrip("/")
    return glob + "**" if glob.endswith("/") else glob


def glob_regex(glob: str, *, collapse: bool = True) -> str:
    """Translate an include/exclude glob on repo-relative POSIX paths to a regex (RE2 syntax).

    `**` spans any number of segments (`a/**/b` also matches `a/b`), `*` and `?` stay within
    one segment, `[...]` is a character class (`!` or `^` negates). A trailing `/` means
    everything below (`vendor/` = `vendor/**`). `collapse=False` keeps runs of stars as
    written (only to compare with the translation before RE2, in tests/bench).
    """
    glob = normalize_glob(glob)
    glob = collapse_stars(glob) if collapse else glob
    out: list[str] = ["(?s)"]
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[" and (end := glob.find("]", i + 2)) != -1:
            inner = glob[i + 1 : end]
            negate = inner[0] in "!^"
            inner = inner[1:] if negate else inner
            out.append("[" + ("^/" if negate else "") + inner.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def compile_glob(glob: str) -> LinearPattern:
    """The anchored (use `fullmatch`) linear-time pattern of a glob; PatternError if refused."""
    check_length(glob)
    return compile_linear(glob_regex(glob))


def glob_problem(glob: str) -> str | None:
    """Why a caller's glob is refused (for an error naming the argument), or None if accepted."""
    try:
        compile_glob(glob)
    except PatternError as exc:
        return str(exc)
    return None
