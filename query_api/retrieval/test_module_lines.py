"""The lines of a Rust file's `#[cfg(test)]` modules, which a hit points into only when the
query is about tests (then first) or no other line matches.

Rust keeps a file's unit tests in the file, and a test names what it checks in the query's
words (`fn timeout_is_applied_to_connect()`), so its lines outscored the code a request is
about: reqwest's QA pass saw hits point into `mod tests`. Bundles already send a file's code
before its tests (query_api/symbols/rust_tests.py); this is the same rule for a hit's lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from query_api.symbols.rust_tests import (
    NAMESPACE_KIND,
    is_test_attribute,
    is_test_module_attribute,
)
from streams.stores.views.symbol_spans import Declared

# kinds of tests a question names (`where are the unit tests`): no subject, no line's word
TEST_KINDS = frozenset(
    {"unit", "integration", "e2e", "functional", "regression", "smoke", "acceptance", "snapshot"}
)
_ATTRIBUTE_LINES = 3  # lines above a module's `mod` line its attributes may take
_CALLED_KINDS = frozenset({"Function", "Method"})  # a test function's kinds
# declarations outside a test module that attributes mark as test code: functions, and the
# constants, types and imports compiled for tests alone
_ITEM_KINDS = frozenset({"Function", "Method", "Type", "Enum", "Field", "Interface", "Other"})


def test_module_ranges(symbols: Sequence[Declared], lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, last) line of each module opened by a `#[cfg(test)]` attribute just above it
    (or on its own line), and of each declaration outside them that its attributes mark as a
    test or as test-only (`#[test] fn`, `#[cfg(test)] fn helper`): hyperfine keeps its unit
    tests so, `mod tests` nowhere, and QA on sharkdp/hyperfine saw `tests for relative
    speed` point relative_speed.rs at its struct, not at `test_compute_relative_speed`."""
    out = []
    for sym in symbols:
        if sym.kind != NAMESPACE_KIND or not 0 < sym.start_line <= len(lines):
            continue
        above = lines[max(0, sym.start_line - 1 - _ATTRIBUTE_LINES) : sym.start_line]
        if any(is_test_module_attribute(line) for line in above):
            out.append((sym.start_line, sym.end_line))
    for sym in symbols:
        if sym.kind == NAMESPACE_KIND or any(a <= sym.start_line <= z for a, z in out):
            continue
        if sym.kind in _ITEM_KINDS and any(map(_marks_test, _attributes(sym, lines))):
            out.append((sym.start_line, sym.end_line))
    return sorted(out)


def _marks_test(line: str) -> bool:
    return is_test_attribute(line) or is_test_module_attribute(line)


def _attributes(sym: Declared, lines: Sequence[str]) -> list[str]:
    """The attribute lines of a declaration: those its range opens with (a Rust item's range
    holds its attributes) and those just above it, each a line opening `#[`."""
    if not 0 < sym.start_line <= len(lines):
        return []
    out: list[str] = []
    n = sym.start_line - 1
    while n < len(lines) and n < sym.end_line and lines[n].lstrip().startswith("#["):
        out.append(lines[n])
        n += 1
    n = sym.start_line - 2
    while n >= 0 and lines[n].lstrip().startswith("#["):
        out.append(lines[n])
        n -= 1
    return out


def about_tests(words: frozenset[str], identifiers: Sequence[str]) -> bool:
    """Whether a query's words or identifiers speak of tests (`test`, `tests`, `testing`,
    `test_timeout`)."""
    return any(w.startswith("test") for w in words) or any("test" in i for i in identifiers)


def outside(numbers: dict[int, int], ranges: Sequence[tuple[int, int]]) -> dict[int, int]:
    """`numbers` (line -> bound) without the lines `ranges` hold."""
    return {n: v for n, v in numbers.items() if not any(a <= n <= z for a, z in ranges)}


# a JavaScript test, or a suite of them, by its runner's call (`test('...', () => {`,
# `it.each(...)(...)`, `describe.only(...)`), opening a line
_TEST_CALL = re.compile(r"^\s*(?:it|test|describe|suite|bench)(?:\.\w+)*\s*\(")
_MAX_CALL_LINES = 2000  # lines read for a call's end


def test_call_ranges(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, last) line of each test or suite call opening a line of `lines`, to its
    closing bracket (a JavaScript or TypeScript test file's tests: QA on mswjs/msw, `where are
    the tests for sse` pointed its test files at `sse: typeof sse` in a `declare` block)."""
    out = []
    for start, line in enumerate(lines):
        if not _TEST_CALL.match(line):
            continue
        depth = 0
        for n in range(start, min(len(lines), start + _MAX_CALL_LINES)):
            depth += sum(c in "([{" for c in lines[n]) - sum(c in ")]}" for c in lines[n])
            if depth <= 0:
                out.append((start + 1, n + 1))
                break
    return out


def held_by(numbers: dict[int, int], ranges: Sequence[tuple[int, int]]) -> dict[int, int]:
    """`numbers` (line -> bound) that `ranges` hold: for a query about tests, a Rust file's
    tests of what it names (QA on sharkdp/fd: `tests for search_str_for_entry` pointed walk.rs
    at the function, not at the tests in its `mod tests` calling it)."""
    return {n: v for n, v in numbers.items() if any(a <= n <= z for a, z in ranges)}


def test_calling(body: str, symbols: Sequence[Declared], named: Declared | None) -> Declared | None:
    """The first test function in a Rust file's `#[cfg(test)]` modules whose lines call the
    declaration `named` (by its name, whole): where a query about its tests (`tests for
    reply::json`) points, not at the declaration. QA on seanmonstar/warp: `tests for
    reply::json` pointed src/reply.rs at `pub fn json`, not at `fn json_serde_error`, whose
    `json(&map).into_response()` is in the file's `mod tests`."""
    if named is None or "." in named.name:
        return None
    lines = body.split("\n")
    ranges = test_module_ranges(symbols, lines)
    if not ranges or any(a <= named.start_line <= z for a, z in ranges):
        return None
    call = re.compile(rf"(?<![\w$]){re.escape(named.name)}\s*(?:::<[^>]*>\s*)?[(!]")
    for sym in sorted(symbols, key=lambda s: s.start_line):
        inside = any(a <= sym.start_line and sym.end_line <= z for a, z in ranges)
        if not inside or sym.kind not in _CALLED_KINDS or sym.end_line > len(lines):
            continue
        if any(call.search(line) for line in lines[sym.start_line - 1 : sym.end_line]):
            return sym
    return None
