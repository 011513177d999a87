"""From a file's declarations to its symbols: which are kept, who owns whom, their fq names
and kinds, and their records.

Nesting comes from byte ranges, so a declaration's fq name is the package, the names of the
declarations (and scopes) containing it, and its own name. A Function directly inside a
Type/Interface/Enum (or a scope) is a Method, as is one with an explicit owner (a Go
receiver).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import xxhash
from tree_sitter import Node

from processors.symbols.declaration import Declaration
from processors.symbols.grammars import Grammar
from processors.symbols.keywords import BLANK, KEYWORDS
from processors.symbols.reference_sites import MACRO_BANG
from processors.symbols.signatures import (
    _outer_decorations,
    _param_type_list,
    _param_types,
    _recovered,
    _signature,
)

TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
# a Rust `macro_rules! log`: its record's name is `log!`, what its invocations reference
# (reference_sites._mark_macro_invocations); its fq name, what a path leads to, stays `log`
_MACRO_RULES = "macro_definition"
_Key = tuple[int, int, int | str]


def kept(defs: dict[_Key, Declaration], grammar_key: str) -> dict[_Key, Declaration]:
    """Without a keyword-named declaration where the parse recovered around it (the `if`,
    `return` "methods" of a file tree-sitter could not parse) and the blank identifier (Go's
    `_`)."""
    keywords = KEYWORDS.get(grammar_key, frozenset())
    if any(d.name in keywords for d in defs.values()):  # rare: a parse recovered by guessing?
        defs = {k: d for k, d in defs.items() if d.name not in keywords or not _recovered(d.node)}
    blank = BLANK.get(grammar_key)
    if blank is not None and any(d.name == blank for d in defs.values()):
        defs = {k: d for k, d in defs.items() if d.name != blank}
    return defs


def nest(defs: Iterable[Declaration], prefix: str) -> list[Declaration]:
    """The declarations (not the scopes) by start, the outer one first, each with its fq name
    (`prefix`: the file's package or module) and its kind as nested."""
    ordered = sorted(defs, key=lambda d: (d.start, -d.end, d.is_scope is False))
    stack: list[Declaration] = []
    symbols: list[Declaration] = []
    for d in ordered:
        while stack and (
            stack[-1].end <= d.start or (stack[-1].start == d.start and stack[-1].end == d.end)
        ):  # ended, or a sibling in the same declaration (`var a, b`): not an owner
            stack.pop()
        owner = stack[-1] if stack else None
        if (
            d.kind == "Function"
            and owner is not None
            and (owner.is_scope or owner.kind in TYPE_KINDS)
        ):
            d.kind = "Method"
        if d.parent:
            outer = owner.fq if owner is not None else prefix
            base = f"{outer}.{d.parent}" if outer else d.parent
        elif owner is not None:
            base = owner.fq
        else:
            base = prefix
        d.fq = f"{base}.{d.name}" if base else d.name
        if d.parent and d.kind == "Function":
            d.kind = "Method"
        stack.append(d)
        if not d.is_scope:
            symbols.append(d)
    return symbols


def without_declared_only(
    symbols: list[Declaration], text: Callable[[int, int], str], src: bytes
) -> list[Declaration]:
    """Without the declarations that have no body (`@decl`: a C prototype, a C++ in-class
    method declaration) when the file also defines the same name with the same parameters."""
    defined = {(d.fq, _param_types(text, src, d.params)) for d in symbols if not d.decl_only}
    return [
        d
        for d in symbols
        if not (d.decl_only and (d.fq, _param_types(text, src, d.params)) in defined)
    ]


def with_decorations(
    symbols: list[Declaration], grammar: Grammar, decorated: set[int]
) -> list[Declaration]:
    """`symbols` with each decorated one starting at its first decorator, as its record's
    lines do (records): what a decorator names is the declaration's reference, not the
    enclosing one's (`@requires("admin")` on an endpoint, a test's `@pytest.mark.parametrize`
    table), so the owners of references (references.py) agree with outline's line ranges."""
    if not decorated or not grammar.decorations:
        return symbols
    out = []
    for d in symbols:
        if d.start in decorated:
            decorators = _outer_decorations(d.node, grammar.decorations)
            if decorators and decorators[0].start_byte < d.start:
                d = replace(d, start=decorators[0].start_byte)
        out.append(d)
    return out


def records(
    symbols: list[Declaration],
    grammar: Grammar,
    text: Callable[[int, int], str],
    src: bytes,
    decorated: set[int],
) -> list[dict[str, Any]]:
    """The fields of schemas.symbols.SymbolDef of each symbol, by line then fq name."""
    whole = memoryview(src)  # digests hash slices of it without copying them
    out = []
    for d in symbols:
        start_row, _ = d.node.start_point
        end_row, end_column = d.node.end_point
        start = d.start
        # decorators written before a declaration belong to it: its lines and digest start
        # with them (reading startLine..endLine gets `@property` too), as its signature does
        decorators = (
            _outer_decorations(d.node, grammar.decorations)
            if decorated and d.start in decorated and grammar.decorations
            else []
        )
        if decorators:
            start_row = decorators[0].start_point[0]
            start = decorators[0].start_byte
        out.append(
            {
                "fq_name": d.fq,
                "name": d.name + MACRO_BANG if d.node.type == _MACRO_RULES else d.name,
                "kind": d.kind,
                "signature": _signature(text, d, grammar, decorators),
                "start_line": start_row + 1,
                # a node ending with its newline ends on the line before
                "end_line": end_row if end_column == 0 and end_row > start_row else end_row + 1,
                "digest": xxhash.xxh3_64_hexdigest(whole[start : d.end]),
            }
        )
    out.sort(key=_line_then_name)
    return out


def _line_then_name(symbol: dict[str, Any]) -> tuple[int, str]:
    return symbol["start_line"], symbol["fq_name"]


# An overload's name carries its parameters' types (`find(string)`, `find(number)`): each at
# most MAX_OVERLOAD_TYPE_CHARS, a long one without its type arguments, and all of them at most
# MAX_OVERLOAD_TYPES_CHARS. A name is an identifier, not a type expression: fastify's
# `addHook('onError', fn: Fn extends unknown ? ... : ...)` made one of 330 characters.
MAX_OVERLOAD_TYPE_CHARS = 40
MAX_OVERLOAD_TYPES_CHARS = 100
_TYPE_ARGUMENTS = re.compile(r"<[^<>]*>")


def _bounded_type(written: str) -> str:
    if len(written) <= MAX_OVERLOAD_TYPE_CHARS:
        return written
    while True:  # innermost first: `A<B<C>>` -> `A<B>` -> `A`
        shorter = _TYPE_ARGUMENTS.sub("", written)
        if shorter == written:
            break
        written = shorter
    if len(written) > MAX_OVERLOAD_TYPE_CHARS:
        written = written[: MAX_OVERLOAD_TYPE_CHARS - 1] + "…"
    return written


def overload_types(text_of: Callable[[int, int], str], src: bytes, params: Node | None) -> str:
    """What an overload's name adds to tell it from its siblings: its parameters' types,
    bounded (above); siblings it no longer tells apart get `#n` (disambiguate)."""
    types = ",".join(map(_bounded_type, _param_type_list(text_of, src, params)))
    if len(types) > MAX_OVERLOAD_TYPES_CHARS:
        types = types[: MAX_OVERLOAD_TYPES_CHARS - 1] + "…"
    return types


def disambiguate(text: Callable[[int, int], str], src: bytes, symbols: list[Declaration]) -> None:
    """Same fq name twice in one file (overloads): append the parameter types, then `#n`."""
    if len({d.fq for d in symbols}) == len(symbols):
        return
    by_fq: dict[str, list[Declaration]] = {}
    for d in symbols:
        by_fq.setdefault(d.fq, []).append(d)
    for fq, same in by_fq.items():
        if len(same) < 2:
            continue
        for d in same:  # a declaration without parameters (a type, a field) gets `#n` only
            d.fq = f"{fq}({overload_types(text, src, d.params)})" if d.params is not None else fq
        seen: dict[str, int] = {}
        for d in same:
            n = seen.get(d.fq, 0) + 1
            seen[d.fq] = n
            if n > 1:
                d.fq = f"{d.fq}#{n}"
    # a nested symbol's fq was built from its owner's old name; rebuild descendants' prefixes
    # is unnecessary for overloads (methods rarely nest declarations that matter) - kept simple.
