"""A question about a command-line flag (`where is the --include-ignored flag defined`) points
each file declaring that flag at its declaration.

A hit's lines are those holding the most of the query's words, and a flag's words are those
of every line using its value: QA on mitsuhiko/insta pointed cargo-insta's cli.rs at
`show_undiscovered_hint` (`find_flags.include_hidden && find_flags.include_ignored`) for
`--include-ignored`, and at a unit test for `where is the --accept flag handled in cargo insta
test`, not at the clap field declaring it (`#[arg(long, ...)]` above `include_ignored: bool`).
A flag is declared as a field or property of its own name under an attribute or tag saying
it is one (clap, picocli, Go struct tags), or as a string literal naming it (argparse's and
click's `"--dry-run"`, cobra's `BoolVar(&x, "dry-run", ...)`, clap's `.long("dry-run")`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from query_api.retrieval.hit_details import DETAILED_HITS, LINE_CHARS, HitLocator
from query_api.retrieval.test_module_lines import test_module_ranges
from schemas import tools as t
from streams.stores.views.symbol_spans import Declared

# a long flag as a question writes it: `--include-ignored`, `` `--accept` ``
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\b(?![-=])", re.IGNORECASE)
# a question's opening (or a `?`): a change request writing a flag is about its behaviour
_ASKED = re.compile(r"^\s*(?:where|how|what|which|who|show|find)\b|\?\s*$", re.IGNORECASE)
_MAX_FLAGS = 2  # more written flags: a pasted command line, not a question about one
# an attribute, tag or call declaring a flag: clap's `#[arg(long)]`, picocli's `@Option`,
# a Go struct tag's `long:"..."`, cobra's `Flags().BoolVar`
_FLAG_WORDS = re.compile(r"\b(?:arg|args|long|flag|flags|option|options|clap|structopt|parameter)",
                         re.IGNORECASE)  # fmt: skip
_FIELD_KINDS = frozenset({"Field", "Property"})
_ABOVE = re.compile(r"^\s*(?:#\[|@|///|//|/\*\*|\*)")  # attribute and doc lines above a field
_MAX_ABOVE = 8
_COMMENT = re.compile(r"^\s*(?://|#(?!\[)|\*|/\*)")


def asked_flags(query: str) -> list[str]:
    """The long flags a question about them writes, without their dashes; none for another
    query or one writing more than _MAX_FLAGS (a pasted command line)."""
    if _ASKED.search(query) is None:
        return []
    found = list(dict.fromkeys(m.group(1).casefold() for m in _FLAG.finditer(query)))
    return found if len(found) <= _MAX_FLAGS else []


def at_flag_declarations(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed file hit declaring a flag the question asks about pointed at
    that declaration (flag_declaration); `hits` as they are for another query."""
    flags = asked_flags(query)
    if not flags:
        return hits
    out = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path:
            body = locator.body(repo_id, path)
            lines = body.split("\n") if body else []
            symbols = locator.symbols_of(repo_id, path) if lines else ()
            found = next(
                (at for flag in flags if (at := flag_declaration(symbols, lines, flag))), None
            )
            if found is not None:
                hit = hit.model_copy(update=_shown(lines, *found))
        out.append(hit)
    return out


def flag_declaration(
    symbols: Sequence[Declared], lines: Sequence[str], flag: str
) -> tuple[int, int, list[int]] | None:
    """The first and last line of the declaration of `flag` (no dashes) in a file, and the
    lines to show: a field named for it under a flag's attribute, else the first line writing
    it as a literal (with its dashes, else bare beside a flag's word); outside the file's test
    modules and comments. None when the file declares no such flag."""
    tests = test_module_ranges(symbols, lines)

    def in_tests(n: int) -> bool:
        return any(first <= n <= last for first, last in tests)

    folded = flag.replace("-", "")
    for sym in symbols:
        name = sym.name.rpartition(".")[2].replace("_", "").casefold()
        if sym.kind not in _FIELD_KINDS or name != folded or in_tests(sym.start_line):
            continue
        if (found := _annotated(lines, sym.start_line, sym.end_line)) is not None:
            return found
    dashed = re.compile(
        rf"""["'`](?:-\w\s*[,|]\s*)?--{re.escape(flag)}(?:[ =<\[,|][^"'`]*)?["'`]"""
    )
    bare = re.compile(rf"""["'`]{re.escape(flag)}["'`]""")
    written: int | None = None
    for n, line in enumerate(lines, 1):
        if _COMMENT.match(line) or in_tests(n):
            continue
        if dashed.search(line):
            return n, n, [n]
        if written is None and bare.search(line) and _FLAG_WORDS.search(line):
            written = n
    return (written, written, [written]) if written is not None else None


def _annotated(lines: Sequence[str], start: int, at: int) -> tuple[int, int, list[int]] | None:
    """The lines of the field declared from line `start` (its attributes, as a parser may
    count them) to `at`, with the attributes and doc comment above it, when one of those (or
    the field's own line, a Go struct tag) says it is a flag; else None."""
    if not 0 < start <= at <= len(lines):
        return None
    first = start
    while first > 1 and at - first < _MAX_ABOVE and _ABOVE.match(lines[first - 2]):
        first -= 1
    flagged = [n for n in range(first, at + 1) if _FLAG_WORDS.search(lines[n - 1])]
    if not flagged or (flagged == [at] and "`" not in lines[at - 1]):
        return None
    return first, at, sorted(set(flagged) | {at})


def _shown(lines: Sequence[str], first: int, last: int, shown: list[int]) -> dict[str, object]:
    snippet = []
    for n in shown:
        text = lines[n - 1].strip()
        snippet.append(f"{n}: {text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + '…'}")
    return {"startLine": first, "endLine": last, "snippet": "\n".join(snippet)}
