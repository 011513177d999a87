"""The text block of a related answer past its head line: imports, then dependents and tests,
each file on one line with its symbols (the first MAX_NAMES_SHOWN, then how many more). A
page of longer lists says so in its list's line, as outline's second line does
("declarations 1-400 of 15,082; offset 400 lists the next"):
"dependents: files 1-40 of 498, 100 of 1,203 symbols; offset 40 lists the next"."""

from __future__ import annotations

import re

from query_api.symbols.dependents import is_test_path
from query_api.symbols.overloads import declared_name
from schemas import symbols as sy
from schemas.symbols import MAX_RELATED_FILES

MAX_NAMES_SHOWN = 20  # of one file's symbols on its line of the text


def related_lines(r: sy.RelatedResult) -> list[str]:
    """The lists, one line a file. A test file using the file is one of its dependents and
    one of its tests with the same symbols: the dependents list counts such files in one
    line rather than repeat them (cobra's related(completions.go) wrote completions_test.go's
    55 names twice; retrofit's Result.java had 14 lines `path: see tests`). A paged answer's
    tests list holds every test file among the dependents, on its own pages: on spf13/pflag
    the page of related(flag.go) at offset 40 wrote again, as dependents, the 30 test files the
    first page listed under tests."""
    out = ["imports: " + (", ".join(r.imports) or "none")]
    tested = _by_path(r.tests)
    paged_tests = r.testFiles is not None
    lists = (
        ("dependents", r.dependents, r.dependentFiles, r.dependentCount),
        ("tests", r.tests, r.testFiles, r.testCount),
    )
    for label, rows, files, count in lists:
        by_path = _by_path(rows)
        page = _page(r, len(by_path), len(rows), files, count)
        out.append(f"{label}:{page}")
        aside = 0
        for path, symbols in by_path.items():
            listed = set(symbols) <= set(tested.get(path, ())) or (
                paged_tests and is_test_path(path)
            )
            if label == "dependents" and listed:
                aside += 1
                continue
            out.append(f"  {path}: {_listed(_named_once(symbols))}")
        if aside:
            out.append(f"  {_aside(aside, len(by_path) - aside, whole=not page)}")
    return out


def _listed(names: list[str]) -> str:
    """At most MAX_NAMES_SHOWN names, then how many more: sharkdp/fd's related wrote 94 test
    names on one line, which an agent reads as noise. The structured lists keep them all."""
    if len(names) <= MAX_NAMES_SHOWN:
        return ", ".join(names)
    more = len(names) - MAX_NAMES_SHOWN
    return ", ".join(names[:MAX_NAMES_SHOWN]) + f" and {more} more"


def _aside(aside: int, shown: int, whole: bool) -> str:
    """The line counting the test files among the dependents. After no other file it is no
    "and": uvicorn's related(loops/auto.py) read "and 1 test file" under "dependents:" alone,
    as if a list had been cut; a whole list says that no source file uses the file."""
    files = f"{aside} test file{'s' if aside > 1 else ''}, listed under tests"
    if shown:
        return f"and {files}"
    return f"no source file; {files}" if whole else files


_SAME_NAME_SUFFIX = re.compile(r"#\d+$")  # `additionalTests(ctx)#2`: the second of the name


def _named_once(symbols: list[str]) -> list[str]:
    """Each name once, without the `#N` that keeps same-named declarations of a file apart
    in the views: unstorage's fs.test.ts read `additionalTests(ctx), additionalTests(ctx)#2`
    (two object methods of one name), which says the name twice and a suffix no code has.
    Overloads of one name listed together are that name once, without the parameter types
    that tell them apart: jquense/yup's related(schema.ts) read `Lazy.cast(any,
    CastOptionalityOptions<TContext>), Lazy.cast(any,CastOptions<TContext>), Lazy.cast(any,
    CastOptions|CastOptionalityOptions)` for one method."""
    named = list(dict.fromkeys(_SAME_NAME_SUFFIX.sub("", symbol) for symbol in symbols))
    overloads: dict[str, int] = {}
    for name in named:
        overloads[declared_name(name)] = overloads.get(declared_name(name), 0) + 1
    return list(
        dict.fromkeys(
            declared_name(name) if overloads[declared_name(name)] > 1 else name for name in named
        )
    )


def _by_path(rows: list[sy.SymbolAt]) -> dict[str, list[str]]:
    """A list's symbols by file, in the list's order."""
    by_path: dict[str, list[str]] = {}
    for row in rows:
        by_path.setdefault(row.path, []).append(row.symbol)
    return by_path


def _page(
    r: sy.RelatedResult, shown_files: int, shown: int, files: int | None, count: int | None
) -> str:
    """What follows a list's label: nothing for a whole list, " none" for an empty one, else
    which of how many files and symbols this page lists and how to go on. Without a next page
    every list ends on this one (or before it), so its files are its last ones."""
    if files is None or count is None:  # the whole list
        return "" if shown else " none"
    if not files:
        return " none"
    if not shown_files:
        return f" offset past the last of {files:,} file{'s' if files > 1 else ''}"
    following = r.nextOffset
    first = files - shown_files + 1 if following is None else following - MAX_RELATED_FILES + 1
    more = f"; offset {following} lists the next" if following and files > following else ""
    if first == 1 and shown_files == files and shown == count:
        # the whole list, beside a cut one: the answer carries both lists' counts, and typer's
        # read "tests: files 1-5 of 5, 18 of 18 symbols"
        return ""
    last = first + shown_files - 1
    return f" files {first:,}-{last:,} of {files:,}, {shown:,} of {count:,} symbols{more}"
