"""Which paths a walk skips: `.git`, git's ignore rules, and the repository's include/exclude globs.

Git's pattern language (escapes, classes, `**`, anchoring, dir-only) is translated by
`pathspec.GitIgnoreSpec`, a maintained implementation, instead of a home-grown matcher. Every
`.gitignore` line is first rebased onto the repository root, so the rules in effect in a
directory are one ordered list (root file first, deeper files later) and "deeper overrides
shallower" becomes "the last matching line wins". The verdict itself follows git's traversal:
each entry is tested on its own while descending (a rule counts only if it matches the entry,
not merely an ancestor) and ignored directories are pruned, so nothing inside one can be
re-included. pathspec's own whole-path evaluation is not used for the verdict: it folds
ancestor matches into each path, which goes wrong once several files' rules are combined.
A randomized test compares the result with `git ls-files --others --exclude-standard`.

Security: pathspec's regexes use `.` and `$`, which treat a newline specially, so a file named
"a\\nb/secret" could dodge `**/secret`. Paths are matched with every newline replaced by NUL,
a character no path can contain, that `.`/`[^/]` match, and that rule lines are never allowed
to hold, so newlines neither dodge a rule nor end a pattern early.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from pathspec import GitIgnoreSpec

from schemas.events import WalkFilters

GIT_DIR = ".git"
GITIGNORE = ".gitignore"
_NEWLINE_STANDIN = "\x00"
_GLOB_SPECIALS = frozenset("\\*?[]")
_MAX_GITIGNORE_BYTES = 4 * 1024 * 1024  # a larger .gitignore is almost certainly not one


def _for_matching(rel_path: str) -> str:
    return rel_path.replace("\n", _NEWLINE_STANDIN)


def _trim_trailing_spaces(line: str) -> str:
    """Git's `trim_trailing_spaces`: drop unescaped trailing spaces (not tabs)."""
    last_space: int | None = None
    i = 0
    while i < len(line):
        char = line[i]
        if char == " ":
            if last_space is None:
                last_space = i
        elif char == "\\":
            i += 1
            if i == len(line):
                return line
            last_space = None
        else:
            last_space = None
        i += 1
    return line if last_space is None else line[:last_space]


def _escape_literal(text: str) -> str:
    escaped = "".join("\\" + c if c in _GLOB_SPECIALS else c for c in text)
    return _for_matching(escaped)


def rebase_rule(line: str, base: str) -> str | None:
    """Rewrite a `.gitignore` line read in directory `base` into the equivalent root-level line.

    A pattern with a slash (other than a trailing one) is anchored to its own directory;
    one without matches at any depth below that directory. Returns None for comments/blanks.
    """
    line = _trim_trailing_spaces(line)
    if not line or line.startswith("#"):
        return None
    negate = line.startswith("!")
    body = line[1:] if negate else line
    dir_only = body.endswith("/")
    core = body[:-1] if dir_only else body
    if not core or core == "/":
        return None
    if base:
        prefix = _escape_literal(base)
        # With a slash it is anchored to the .gitignore's directory, else it matches below it.
        rest = core.removeprefix("/") if "/" in core else f"**/{core}"
        core = f"/{prefix}/{rest}"
    if dir_only and core.endswith("/**"):
        # pathspec reads `x/**/` as "x and everything in it"; git means "every directory below
        # x" (x itself and files directly in it stay), which `x/**/*/` spells unambiguously.
        core += "/*"
    return ("!" if negate else "") + core + ("/" if dir_only else "")


def read_gitignore(path: str) -> list[str]:
    """The rule lines of one `.gitignore`, read like git does; [] if absent or unreadable.

    Never follows a symlinked `.gitignore` (git refuses them too). A leading UTF-8 BOM is
    skipped, lines split on LF with one trailing CR dropped, undecodable bytes kept via
    surrogateescape so rules match the same (surrogate-escaped) names `os.scandir` returns.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(_MAX_GITIGNORE_BYTES)
    except OSError:
        return []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", "surrogateescape")
    lines = [raw[:-1] if raw.endswith("\r") else raw for raw in text.split("\n")]
    return [line for line in lines if _NEWLINE_STANDIN not in line]


_ANY_DIR = "(?P<ps_d>/)"  # pathspec's whole regex for `*/` and `**/`: every directory


@dataclass(frozen=True, slots=True)
class _Rule:
    regex: re.Pattern[str]
    ignore: bool  # False for a `!` rule
    marked: bool  # the regex marks "matched via a directory" with pathspec's `ps_d` group

    def matches_itself(self, bare: str, is_dir: bool) -> bool:
        """Whether the rule matches the entry itself, not merely an ancestor directory.

        pathspec's regexes also match everything below a matched directory. The walk prunes
        ignored directories, so only a match on the entry itself may count (else a deeper
        `!dir/` would re-include files an outer `*.txt` ignores). Marked regexes are tried on
        `path/` for directories and count only if the mark is that final slash; unmarked ones
        (from a trailing `/**`: "inside X") are tried on the bare path, so X itself is not hit.
        """
        if self.regex.pattern == _ANY_DIR:
            return is_dir
        if not self.marked:
            return self.regex.search(bare) is not None
        candidate = bare + "/" if is_dir else bare
        found = self.regex.search(candidate)
        if found is None:
            return False
        return found.group("ps_d") is None or found.end("ps_d") == len(candidate)


def _compile_rules(lines: list[str]) -> list[_Rule]:
    spec = GitIgnoreSpec.from_lines(lines, backend="simple")
    return [
        _Rule(p.regex, p.include, "ps_d" in p.regex.groupindex)
        for p in spec.patterns
        if p.include is not None and p.regex is not None
    ]


class GitIgnoreRules:
    """The rules in effect in each directory, loaded lazily from disk and cached.

    pathspec translates each line to a regex; the verdict is git's own: the last rule (deeper
    files count as later) that matches the entry itself decides. `invalidate()` drops the
    cache; call it when any `.gitignore` changed.
    """

    def __init__(self, root: Path) -> None:
        self._root = os.fspath(root)
        self._rules: dict[str, list[_Rule]] = {}

    def invalidate(self) -> None:
        self._rules.clear()

    def rules_for(self, rel_dir: str) -> list[_Rule]:
        """Rules that apply to entries directly inside `rel_dir` ("" = the root), in order."""
        cached = self._rules.get(rel_dir)
        if cached is not None:
            return cached
        inherited = self.rules_for(rel_dir.rpartition("/")[0]) if rel_dir else []
        file_path = os.path.join(self._root, rel_dir, GITIGNORE)
        lines = [r for r in (rebase_rule(x, rel_dir) for x in read_gitignore(file_path)) if r]
        rules = inherited + _compile_rules(lines) if lines else inherited
        self._rules[rel_dir] = rules
        return rules

    def is_ignored(self, rel_path: str, is_dir: bool) -> bool:
        """Whether the entry itself is ignored (its ancestors are assumed not to be)."""
        rules = self.rules_for(rel_path.rpartition("/")[0])
        if not rules:
            return False
        bare = _for_matching(rel_path)
        for rule in reversed(rules):
            if rule.matches_itself(bare, is_dir):
                return rule.ignore
        return False


def _normalize_glob(glob: str) -> str:
    glob = glob.strip().removeprefix("./").lstrip("/")
    return glob + "**" if glob.endswith("/") else glob


def compile_glob(glob: str) -> re.Pattern[str]:
    """Translate an include/exclude glob on repo-relative POSIX paths to an anchored regex.

    `**` spans any number of segments (`a/**/b` also matches `a/b`), `*` and `?` stay within
    one segment, `[...]` is a character class (`!` or `^` negates). A trailing `/` means
    everything below (`vendor/` = `vendor/**`).
    """
    glob = _normalize_glob(glob)
    out: list[str] = []
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
    return re.compile("".join(out), re.DOTALL)


class PathFilter:
    """Everything that decides whether a walk visits a path.

    The walker asks `skip_dir`/`skip_file` for each entry during descent (parents already
    passed); the watcher asks `excluded`, which also checks every ancestor directory.
    """

    def __init__(self, root: Path, filters: WalkFilters) -> None:
        self.root = root
        self.filters = filters
        self.gitignore = GitIgnoreRules(root) if filters.respect_gitignore else None
        self._includes = [compile_glob(g) for g in filters.include_globs if g.strip()]
        self._excludes = [compile_glob(g) for g in filters.exclude_globs if g.strip()]
        # `dir/**` excludes everything below dir, so the walk need not descend into it.
        self._excluded_dirs = [
            compile_glob(g[:-3])
            for g in map(_normalize_glob, filters.exclude_globs)
            if g.endswith("/**") and len(g) > 3
        ]
        self._dir_verdicts: dict[str, bool] = {}  # ancestor checks of out-of-order paths

    def invalidate(self) -> None:
        """Forget cached gitignore rules (a `.gitignore` changed)."""
        self._dir_verdicts.clear()
        if self.gitignore is not None:
            self.gitignore.invalidate()

    def skip_dir(self, rel_dir: str) -> bool:
        name = rel_dir.rpartition("/")[2]
        if name == GIT_DIR:
            return True
        if any(p.fullmatch(rel_dir) for p in self._excluded_dirs):
            return True
        return self.gitignore is not None and self.gitignore.is_ignored(rel_dir, is_dir=True)

    def skip_file(self, rel_path: str) -> bool:
        if rel_path.rpartition("/")[2] == GIT_DIR:  # a worktree's or submodule's `.git` file
            return True
        if self._includes and not any(p.fullmatch(rel_path) for p in self._includes):
            return True
        if any(p.fullmatch(rel_path) for p in self._excludes):
            return True
        return self.gitignore is not None and self.gitignore.is_ignored(rel_path, is_dir=False)

    def excluded(self, rel_path: str, is_dir: bool) -> bool:
        """Full check for a path seen out of walk order (watcher events): ancestors too."""
        parts = rel_path.split("/")
        for depth in range(1, len(parts)):
            ancestor = "/".join(parts[:depth])
            verdict = self._dir_verdicts.get(ancestor)
            if verdict is None:
                if len(self._dir_verdicts) > 65_536:
                    self._dir_verdicts.clear()
                verdict = self._dir_verdicts[ancestor] = self.skip_dir(ancestor)
            if verdict:
                return True
        return self.skip_dir(rel_path) if is_dir else self.skip_file(rel_path)
