"""Overloads: one name declared several times in a file, as the symbol views tell them apart
and as an agent wants them.

The symbol views name each of a file's overloads by its parameters' types and a `#n`
(processors/symbols/nesting.py). Python's `@overload` stubs and TypeScript's overload
signatures come before the one declaration that holds the code, and repeat its name and
parameters: a hit pointed at click's first `progressbar` stub (`-> ProgressBar[int]: ...`)
rather than the function an agent would change, forty lines below.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from streams.stores.views.symbol_spans import Declared

# the types and `#n` an overload's fq name carries
_OVERLOAD_SUFFIX = re.compile(r"\(.*\)(?:#\d+)?$|#\d+$")
_OVERLOAD_DECORATOR = re.compile(r"^\s*@(?:[\w.]+\.)?overload\b")
_DECORATOR = re.compile(r"^\s*@")
_DECORATOR_LINES = 3  # lines above a declaration's first its decorators may take
_PYTHON_DEF = re.compile(r"^\s*(?:async\s+)?def\s")


def declared_name(fq_name: str) -> str:
    """An fq name less what tells an overload from its siblings."""
    return _OVERLOAD_SUFFIX.sub("", fq_name) or fq_name


def stub_ranges(symbols: Sequence[Declared], lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, last) line of each overload stub whose name a declaration with code shares:
    a Python `@overload` (the decorator on or just above its first line) or a signature with
    no body (TypeScript's `function f(a: string): R;`, or without the `;`). Java's overloads
    all hold code and none is a stub."""
    groups: dict[str, list[Declared]] = {}
    for sym in symbols:
        if 0 < sym.start_line <= sym.end_line <= len(lines):
            groups.setdefault(declared_name(sym.fq_name), []).append(sym)
    out: list[tuple[int, int]] = []
    for same in groups.values():
        if len(same) < 2:
            continue
        stubs = [s for s in same if _is_stub(s, lines)]
        if stubs and len(stubs) < len(same):
            out += [(s.start_line, s.end_line) for s in stubs]
    return out


def _is_stub(sym: Declared, lines: Sequence[str]) -> bool:
    if any(_OVERLOAD_DECORATOR.match(line) for line in _decorators(sym.start_line, lines)):
        return True
    own = lines[sym.start_line - 1 : sym.end_line]
    if not any("{" in line for line in own) and own[-1].rstrip().endswith(";"):
        return True
    return not _PYTHON_DEF.match(own[0]) and _unterminated_signature(own)


def _unterminated_signature(own: Sequence[str]) -> bool:
    """A signature with no body and no closing `;` (code formatted without semicolons):
    QA on vuejs/pinia pointed `$patch` at the first of its two overload signatures
    (`function $patch(partial: _DeepPartial<S>): void`), not at the code below. No line of
    it opens a block and it does not end one; a Python def is told by its decorator only."""
    opens = any(line.rstrip().endswith("{") for line in own)
    return not opens and not own[-1].rstrip().endswith("}")


def _decorators(start: int, lines: Sequence[str]) -> list[str]:
    """The decorator lines of the declaration starting at line `start` (1-based): its first
    line, those below it while the line before is one, and the run just above it (at most
    _DECORATOR_LINES). Any line of the three above had counted: stubs written without blank
    lines between them (werkzeug's `MultiDict.to_dict`) put the last stub's `@t.overload`
    two lines above the declaration holding the code, which was taken for a stub too, so
    none of the three was told apart."""
    out = []
    at = start  # its own decorators, 1-based
    while 0 < at <= len(lines) and (at == start or _DECORATOR.match(lines[at - 2])):
        out.append(lines[at - 1])
        at += 1
    at = start - 1  # the line above
    while at >= 1 and start - at <= _DECORATOR_LINES and _DECORATOR.match(lines[at - 1]):
        out.append(lines[at - 1])
        at -= 1
    return out
