"""Which of a file's lines scoring the same against a query a hit points at
(hit_details.locate_in_file): the order of preference, import statements, and the lines a
file's declarations cover."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from query_api.retrieval.users_first import outside_long_strings
from streams.stores.views.symbol_spans import Declared

# how LinePreference orders a line: lower first
PreferenceKey = tuple[int, bool, bool, bool, bool, bool, float, bool, int]


@dataclass(frozen=True)
class LinePreference:
    """Which of two lines scoring the same is the hit's: one inside a declaration the hit's
    reasons name (the first named first), then one below the file's licence header (its
    `you may not use this file` took commons-cli's `groups not being reported in help
    output` from package-info.java's `produce help output`), then one inside any declaration
    (an import or a licence header names what the code below uses: uvicorn's callers of
    `get_client_addr` pointed at their imports), then one that is no import statement (a
    Rust `impl Resolve for HickoryDnsResolver {` header lies in no declaration, and reqwest's
    `use crate::dns::Resolve;` above it took `implementations of the Resolve trait`), then
    one outside a fenced code block (a Markdown page documents a thing in its prose and
    tables, and its examples only use it: typestack/class-validator's `docs for IsEmail`
    pointed README.md at `@IsEmail()` in the first example, not at the decorators table's
    `| @IsEmail(options?: IsEmailOptions) | Checks if the string is an email. |`), then,
    when `code_first`, one outside a triple-quoted string (a docstring lists what the code
    below does: PyCQA/flake8's `where is the --max-line-length option registered` pointed
    main/options.py at its docstring's ``- ``--max-line-length`` ``, not at
    `add_option("--max-line-length", ...)`), then the one holding the file's rarer query
    words (`rarity`), then a declaration's first line (its head: _heads), then the first."""

    starts: set[int]
    named: Sequence[Declared]
    rarity: dict[int, float] = field(default_factory=dict)
    declared: Sequence[tuple[int, int]] = ()  # the lines declarations cover, merged, in order
    licence_end: int = 1  # the first line below the file's licence header

    lines: Sequence[str] = ()
    body: str = ""  # the text `lines` were split from, when the caller has it
    code_first: bool = False  # a docstring's lines after the code's (the query asks no prose)

    @functools.cached_property
    def imports(self) -> frozenset[int]:
        """The numbers of the lines of import statements (import_lines), and of a Markdown
        table of contents' entries (`* [Middleware](#middleware)`): each says where code or
        a section is, not what it holds (QA on gorilla/mux, `where is the middleware
        behaviour documented` pointed README.md at its contents' entry, line 32, not at the
        `### Middleware` section, line 509)."""
        if self.body:  # the same file's set again: a search reads its hits' files each time
            return _imports_of(self.body)
        return _import_or_contents_lines(self.lines)

    @functools.cached_property
    def heads(self) -> frozenset[int]:
        """The declarations' first lines (`starts`), a decorated one's below its decorators
        (_heads)."""
        return _heads(self.starts, self.lines) if self.lines else frozenset(self.starts)

    @functools.cached_property
    def fenced(self) -> frozenset[int]:
        """The numbers of the lines of fenced code blocks (```` ``` ```` or `~~~` fences)."""
        return _fenced_of(self.body) if self.body else _fenced_lines(self.lines)

    @functools.cached_property
    def long_strings(self) -> frozenset[int]:
        """The numbers of the lines wholly inside triple-quoted strings (docstrings), none
        unless `code_first`."""
        if not self.code_first:
            return frozenset()
        text = self.body or "\n".join(self.lines)
        if '"""' not in text and "'''" not in text:
            return frozenset()  # no triple quote, so no line inside one (and no scan of each)
        lines = text.split("\n")
        return long_string_lines(tuple(lines))

    def key(self, n: int) -> PreferenceKey:
        rank = next(
            (i for i, s in enumerate(self.named) if s.start_line <= n <= s.end_line),
            len(self.named),
        )
        at = bisect.bisect_right(self.declared, (n, _LAST_LINE)) - 1
        inside = at >= 0 and self.declared[at][0] <= n <= self.declared[at][1]
        licence = n < self.licence_end
        imports = not inside and n in self.imports
        return (
            rank,
            licence,
            not inside,
            imports,
            n in self.fenced,
            n in self.long_strings,
            -self.rarity.get(n, 0.0),
            n not in self.heads,
            n,
        )


@functools.lru_cache(maxsize=64)
def long_string_lines(lines: tuple[str, ...]) -> frozenset[int]:
    """The lines whose code outside triple-quoted strings is blank though the line is not:
    a docstring's."""
    code = outside_long_strings(lines)
    return frozenset(
        n for n, (line, rest) in enumerate(zip(lines, code, strict=True), 1)
        if line.strip() and not rest.strip()
    )  # fmt: skip


def _import_or_contents_lines(lines: Sequence[str]) -> frozenset[int]:
    found = import_lines(lines)
    if "](#" not in "\n".join(lines):  # no link to an anchor: no contents entry (one search)
        return found
    contents = (n for n, line in enumerate(lines, start=1) if _CONTENTS.match(line))
    return found | frozenset(contents)


def _fenced_lines(lines: Sequence[str]) -> frozenset[int]:
    if not any("```" in line or "~~~" in line for line in lines):
        return frozenset()  # no fence opens (most code files): no line scanned one by one
    out: set[int] = set()
    fence = ""
    for n, line in enumerate(lines, start=1):
        text = line.lstrip()
        opens = text[:3] if text.startswith(("```", "~~~")) else ""
        if fence or opens:
            out.add(n)
        if opens and (not fence or opens == fence):
            fence = "" if fence else opens
    return frozenset(out)


@functools.lru_cache(maxsize=64)
def _fenced_of(body: str) -> frozenset[int]:
    """LinePreference.fenced of a file's text, remembered as _imports_of is."""
    return _fenced_lines(body.split("\n"))


@functools.lru_cache(maxsize=64)
def _imports_of(body: str) -> frozenset[int]:
    """LinePreference.imports of a file's text, remembered: scanning every line of each hit's
    file on each search cost a keyword search about 2 ms (labstack/echo, 6aaaa34)."""
    return _import_or_contents_lines(body.split("\n"))


# a line that imports or includes code from elsewhere, in the languages the index outlines
_IMPORT_LINE = re.compile(
    r"^\s*(?:(?:pub(?:\([\w:]+\))?\s+)?use\s+[\w:{*]|extern\s+crate\s|import[\s({\"'*]|from\s+[\w.]+"
    r"\s+import\s|#\s*include\s|package\s+[\w.]+;?\s*$|using\s+[\w.]+\s*;|"
    r"(?:const|let|var)\s+[\w{}\s,]+=\s*require\()"
)


def is_import(line: str) -> bool:
    """Whether `line` is an import statement (`use a::b;`, `import x`, `from a import b`,
    `#include <x>`, `const x = require('x')`)."""
    return _IMPORT_LINE.match(line) is not None


MAX_IMPORT_LINES = 200  # the lines one import statement is followed over


def import_lines(lines: Sequence[str]) -> frozenset[int]:
    """The numbers (1-based) of `lines` that belong to import statements: each line that
    starts one (is_import) and the lines of one written over several, up to its closing
    bracket (`import {` ... `} from "./utils"`, `from a import (` ... `)`, Go's `import (`
    ... `)`, Rust's `use a::{` ... `};`). A line `normalizeKey,` inside such a statement is
    no use of the name: QA on unjs/unstorage, `what calls normalizeKey` pointed storage.ts
    at it, not at its calls."""
    out: set[int] = set()
    n = 0
    for start in _import_heads(lines):
        if start < n:
            continue  # inside the statement before it, whose lines are in already
        n = start
        if is_import(lines[n]):
            out.add(n + 1)
            # followed only when the line ends open: not a dynamic `import("x").then(() => {`
            # nor a docstring's `import the data (from ...`
            opened = _OPENS.search(lines[n]) is not None and not _DYNAMIC.match(lines[n])
            depth = _depth(lines[n]) if opened else 0
            last = min(len(lines), n + MAX_IMPORT_LINES)
            while depth > 0 and n + 1 < last:
                n += 1
                out.add(n + 1)
                depth += _depth(lines[n])
        n += 1
    return frozenset(out)


def _import_heads(lines: Sequence[str]) -> list[int]:
    """The indexes of the lines that may start an import statement: those whose first word
    is one _IMPORT_LINE opens with. One search of the joined text finds them, where
    matching _IMPORT_LINE against each line of a long file cost a search milliseconds; each
    line is searched from the newline before it, a literal the regex engine skips to, where
    a `^` under re.M is tried at every character."""
    text = "\n" + "\n".join(lines)
    heads: list[int] = []
    newlines, seen = 0, 0  # the newlines in text[:seen]
    for match in _HEAD_WORD.finditer(text):
        newlines += text.count("\n", seen, match.start() + 1)
        seen = match.start() + 1
        heads.append(newlines - 1)
    return heads


# the words an import statement's line starts with (after blanks), as _IMPORT_LINE reads them
_HEAD_WORD = re.compile(r"\n[^\S\n]*(?:pub|use|extern|import|from|#|package|using|const|let|var)")


def _depth(line: str) -> int:
    """How many more brackets `line` opens than it closes, outside string literals."""
    code = _QUOTED.sub("", line)
    return code.count("{") + code.count("(") - code.count("}") - code.count(")")


_OPENS = re.compile(r"[{(,]\s*(?://.*|#.*)?$")  # a line ending open, maybe before a comment
_DYNAMIC = re.compile(r"^\s*import\(")  # JavaScript's dynamic import(), an expression
_QUOTED = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`""")


# a table of contents' entry: a list item opening with a link to an anchor of the page (a
# few words may follow it: `* [SPAs](#spas) (e.g. React, Vue)`)
_CONTENTS = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[^\]\n]*\]\(#[^)\s]*\)")

_LAST_LINE = 1 << 62  # sorts after any end line of a declaration starting on the same line


def covered(symbols: Sequence[Declared]) -> list[tuple[int, int]]:
    """The line ranges `symbols` cover, overlapping ones merged, in order."""
    out: list[tuple[int, int]] = []
    for start, end in sorted((s.start_line, s.end_line) for s in symbols):
        if out and start <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


# a decorator, annotation or attribute opening a line (`@define`, `#[derive(Debug)]`)
_ATTRIBUTE = re.compile(r"^\s*(?:#!?\[|@)")
MAX_ATTRIBUTE_LINES = 20  # lines a declaration's decorators are followed over


def _heads(starts: set[int], lines: Sequence[str]) -> frozenset[int]:
    """Each of `starts` (a declaration's first line, 1-based), or for one opening with its
    decorators the line below them: `class FunctionDispatch:` under `@define`. QA on
    python-attrs/cattrs: `FunctionDispatch` pointed dispatch.py at `def copy_to(self, other:
    FunctionDispatch, ...)`, whose def is its first line, not at the class, whose first line
    is its decorator."""
    out: set[int] = set()
    for start in starts:
        n, depth = start, 0
        last = min(len(lines), start + MAX_ATTRIBUTE_LINES)
        while n < last and (depth > 0 or _ATTRIBUTE.match(lines[n - 1])):
            depth = max(0, depth + _depth(lines[n - 1]) + _brackets(lines[n - 1]))
            n += 1
        out.add(n)
    return frozenset(out)


def _brackets(line: str) -> int:
    """How many more square brackets `line` opens than it closes, outside string literals."""
    code = _QUOTED.sub("", line)
    return code.count("[") - code.count("]")
