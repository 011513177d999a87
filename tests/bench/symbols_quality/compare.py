"""Our declarations against a reference's, by file, name and start line, per kind class.

A pair matches when file, kind class and name agree and the reference's line is our start
line, or lies in the head our declaration starts with (decorators, annotations and
attributes written before the name, which our start line includes: at most HEAD_LINES lines
and within the declaration). Pairs are made nearest line first, one to one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from processors.symbols.keywords import KEYWORDS
from tests.bench.symbols_quality.references import (
    CLASSES,
    FIELD,
    FUNCTION,
    NAMESPACE_LANGUAGES,
    TYPE,
    Tag,
)

HEAD_LINES = 80  # a pytest.mark.parametrize table can be long
# declared inside one of these, a symbol is local: not compared (references.py says why)
_VARIABLE_KINDS = frozenset({"variable", "constant"})
_JS = frozenset({"typescript", "tsx", "javascript"})
_DISAMBIGUATION = re.compile(r"(?<!\boperator)(\(.*\))?(#\d+)?$")  # not `operator()`
_LOCAL_OWNERS = frozenset({"Function", "Method", "Field", "Property"})
# C and C++ have no object literals: what a field or variable declaration contains is the
# members of the type it declares inline (`union { int i; double d; } u;`, `enum { A, B }
# mode;`), which ctags reports as the enclosing type's members
_C_FAMILY_LOCAL_OWNERS = frozenset({"Function", "Method"})


def our_class(language: str, symbol: dict[str, Any]) -> str | None:
    """The kind class of one of our symbols (a SymbolDef as a dict), None when not compared."""
    kind = symbol["kind"]
    if kind in ("Type", "Interface", "Enum"):
        return TYPE
    if kind == "Namespace":
        return TYPE if language in NAMESPACE_LANGUAGES else None
    if kind == "Other":  # macros and C# delegates: no ctags kind to compare with
        signature: str = symbol["signature"]
        if signature.startswith(("#", "macro_rules")) or language == "csharp":
            return None
        return TYPE
    if kind in ("Function", "Method"):
        return FUNCTION
    if kind == "Field" and language == "kotlin":
        return None  # Kotlin's Fields are enum entries, which ctags' Kotlin parser never reports
    return FIELD


@dataclass
class Counts:
    ours: int = 0
    reference: int = 0
    matched: int = 0

    def add(self, other: Counts) -> None:
        self.ours += other.ours
        self.reference += other.reference
        self.matched += other.matched

    @property
    def precision(self) -> float | None:
        return self.matched / self.ours if self.ours else None

    @property
    def recall(self) -> float | None:
        return self.matched / self.reference if self.reference else None


@dataclass
class FileResult:
    key: str
    language: str
    counts: dict[str, Counts] = field(default_factory=dict)
    missed: list[Tag] = field(default_factory=list)  # the reference's, unmatched
    extra: list[Tag] = field(default_factory=list)  # ours, unmatched

    @property
    def errors(self) -> int:
        return len(self.missed) + len(self.extra)


def _base(fq: str) -> str:
    """An fq name without what told overloads apart (`f(int)#2` -> `f`)."""
    return _DISAMBIGUATION.sub("", fq)


def _owner_base(symbol: dict[str, Any]) -> str:
    """The fq name of a symbol's owner before overloads were told apart. A name may end
    the way a told-apart overload does (a method named by a string, `"String.slice()"() {}`):
    then the fq name ends with the name itself."""
    fq, name = symbol["fq_name"], symbol["name"]
    if fq.endswith("." + name) and _base(name) != name:
        return _base(fq[: -len(name) - 1])
    base = _base(fq)
    return base[: -len(name) - 1] if base.endswith(name) else ""


def _variant(ours: list[dict[str, Any]], by_base: dict[str, list[int]], owner: int) -> bool:
    """Whether our symbol `owner` is an enum's member (a Rust variant `Text { start: usize
    }`): what it contains is the variant's fields, not locals."""
    parent = _owner_base(ours[owner])
    return any(ours[j]["kind"] == "Enum" for j in by_base.get(parent, []))


def _locals(ours: list[dict[str, Any]], owners: frozenset[str] = _LOCAL_OWNERS) -> set[int]:
    """The indexes of our symbols declared inside a function or a variable, at any depth (a
    test function's class, and that class's methods). A member's fq name is its owner's
    before overloads were told apart, so owners are looked up by that, and must contain it.
    An enum member's fields are no locals (a Rust struct variant's); its methods are (Java's
    and Kotlin's enum constants with a body: an anonymous subclass's overrides)."""
    by_base: dict[str, list[int]] = defaultdict(list)
    for i, symbol in enumerate(ours):
        by_base[_base(symbol["fq_name"])].append(i)
    local: set[int] = set()
    order = sorted(range(len(ours)), key=lambda i: len(ours[i]["fq_name"]))  # owners first
    for i in order:
        symbol = ours[i]
        owner_base = _owner_base(symbol)
        for j in by_base.get(owner_base, []):
            owner = ours[j]
            if j in local:  # a local type's members, wherever written (a Rust `impl`)
                local.add(i)
                break
            if not owner["start_line"] <= symbol["start_line"] <= owner["end_line"]:
                continue  # named after an object it is not inside (`res.send`)
            if owner["kind"] in owners and not (
                symbol["kind"] == "Field"
                and owner["kind"] == "Field"
                and _variant(ours, by_base, j)
            ):
                local.add(i)
            break
    return local


def compare_file(
    key: str, language: str, ours: list[dict[str, Any]], reference: list[Tag]
) -> FileResult:
    result = FileResult(key, language, {c: Counts() for c in CLASSES})
    mine: dict[tuple[str, str], list[tuple[int, int, int]]] = defaultdict(list)
    local = _locals(ours, _C_FAMILY_LOCAL_OWNERS if language in ("c", "cpp") else _LOCAL_OWNERS)
    for i, symbol in enumerate(ours):
        kind_class = our_class(language, symbol)
        if kind_class is None or i in local:
            continue
        result.counts[kind_class].ours += 1
        mine[(kind_class, symbol["name"])].append((symbol["start_line"], symbol["end_line"], i))
    theirs: dict[tuple[str, str], list[Tag]] = defaultdict(list)
    for tag in reference:
        kind = tag.kind.removesuffix(" (exported)")  # native/ts_decls.js marks exports
        if language in _JS and kind in _VARIABLE_KINDS and (FUNCTION, tag.name) in mine:
            # `const f = function () {}`: a function bound to a name, which the reference
            # calls a variable; ours is the function it is
            tag = Tag(tag.name, tag.line, FUNCTION, tag.kind)
        result.counts[tag.kind_class].reference += 1
        theirs[(tag.kind_class, tag.name)].append(tag)
    used: set[int] = set()
    for (kind_class, name), tags in theirs.items():
        candidates = mine.get((kind_class, name), [])
        pairs = sorted(
            (abs(tag.line - start), t, i)
            for t, tag in enumerate(tags)
            for start, end, i in candidates
            if tag.line == start or start <= tag.line <= min(end, start + HEAD_LINES)
        )
        taken: set[int] = set()
        for _distance, t, i in pairs:
            if t in taken or i in used:
                continue
            taken.add(t)
            used.add(i)
            result.counts[kind_class].matched += 1
        result.missed += [tag for t, tag in enumerate(tags) if t not in taken]
    for (kind_class, _name), entries in mine.items():
        for start, _end, i in entries:
            if i not in used:
                symbol = ours[i]
                result.extra.append(Tag(symbol["name"], start, kind_class, symbol["kind"]))
    return result


def keyword_names(language: str, ours: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    """Our symbols named by a reserved word of the language: (name, line, kind)."""
    words = KEYWORDS.get(language, frozenset())
    return [(s["name"], s["start_line"], s["kind"]) for s in ours if s["name"] in words]
