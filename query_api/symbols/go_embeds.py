"""The Go files that embed a file through a `//go:embed` directive: its dependents.

A template, a schema or a static asset a Go package embeds declares nothing and is named by
no reference, yet the package reads it at build time: changing it changes the binary. The
extractor keeps each directive's patterns as import entries naming repository paths
(`go:embed web/templates/*.html`, processors/symbols/languages/go.read_embeds); a file is
embedded when a pattern matches it, or one of its folders, by Go's rules: `path.Match`
element by element (`*` never crosses a `/`), and in a folder every file but those whose
names start with `.` or `_` below it, unless the pattern says `all:`.
"""

from __future__ import annotations

import functools
import re

from processors.symbols.languages.go import EMBED_PREFIX
from streams.stores.views.symbols import SymbolViews

_EVERY = "all:"


def embedders(symbols: SymbolViews, repo_id: str, asked: set[str]) -> list[str]:
    """The files (not in `asked`) whose `//go:embed` directives embed a file of `asked`, in
    path order: one bounded read of the repository's embed entries."""
    out: set[str] = set()
    for path, entry in symbols.imports_starting(repo_id, EMBED_PREFIX):
        if path not in asked and any(embeds(entry[len(EMBED_PREFIX) :], a) for a in asked):
            out.add(path)
    return sorted(out)


def embeds(pattern: str, path: str) -> bool:
    """Whether the embed pattern (a repository path pattern, `all:` first where written)
    embeds the file at `path`."""
    every = pattern.startswith(_EVERY)
    wanted = pattern.removeprefix(_EVERY).split("/")
    parts = path.split("/")
    if len(parts) < len(wanted):
        return False
    if not all(_element(w).fullmatch(p) for w, p in zip(wanted, parts, strict=False)):
        return False
    below = parts[len(wanted) :]  # inside an embedded folder: its hidden files are left out
    return every or not any(p.startswith((".", "_")) for p in below)


@functools.lru_cache(maxsize=1024)
def _element(pattern: str) -> re.Pattern[str]:
    """One path element of a `path.Match` pattern as a regular expression: `*` and `?`
    never match a `/`, `[^a-z]` is a negated class, `\\` escapes the next character."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        elif c == "[" and (end := pattern.find("]", i + 2)) > 0:
            body = pattern[i + 1 : end]
            negated = body.startswith("^")
            body = body[1:] if negated else body
            out.append("[" + ("^" if negated else "") + body.replace("\\", "\\\\") + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    try:
        return re.compile("".join(out))
    except re.error:  # a class Go would refuse too (`[z-a]`): it embeds nothing
        return re.compile(r"(?!)")
