"""Which declaration a hit on a file longer than its stored text (64 Ki characters) points
at when the query names one lying past that text, and the declarations a hit's `symbol:`
reasons name (hit_details._detailed)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from processors.tokenizer import tokenize
from query_api.retrieval.test_module_lines import about_tests, test_module_ranges
from query_api.retrieval.typed_overloads import fitting_overload
from query_api.retrieval.word_forms import needle
from streams.stores.views.symbol_spans import Declared

if TYPE_CHECKING:
    from query_api.retrieval.hit_details import QueryTerms

SYMBOL_REASON = "symbol:"


def reasons_named(
    symbols: Sequence[Declared], reasons: Sequence[str], written: Collection[str] = ()
) -> list[Declared]:
    """The declarations the hit's `symbol:` reasons name, in the reasons' order (those
    sharing the most of the query's words first: streams/stores/views/symbol_spans.py),
    then the methods declared apart from a type of them the query writes whole (`written`,
    lower-cased: a Go receiver's `func (e *ForExpr) Value`), where that type's code is. QA on
    hashicorp/hcl: `pass marks through unknown ForExpr values` pointed hclsyntax/expression.go
    at ConditionalExpr.Value, whose lines matched as well as ForExpr.Value's."""
    order = {
        r[len(SYMBOL_REASON) :]: i for i, r in enumerate(reasons) if r.startswith(SYMBOL_REASON)
    }
    if not order:
        return []
    found = [(order[s.fq_name], s) for s in symbols if s.fq_name in order]
    found.sort(key=lambda item: item[0])
    named = _methods_first([s for _, s in found], symbols)
    types = [s for s in named if s.name.casefold() in written and s.kind in _TYPE_KINDS]
    apart = [
        m
        for t in types
        for m in symbols
        if m.kind == _METHOD_KIND
        and m.fq_name.startswith(t.fq_name + ".")
        and not t.start_line <= m.start_line <= t.end_line
    ]
    return named + [m for m in apart if m not in named]


def _methods_first(named: list[Declared], symbols: Sequence[Declared]) -> list[Declared]:
    """`named` with the method a field shares its name with before the field (the views
    name it with its parameters: `Style.progress_chars(self,&str)`), as what is called. QA
    on console-rs/indicatif: `how do I customize the progress chars` pointed style.rs at the
    field `progress_chars: Vec<Box<str>>`, not at `pub fn progress_chars`, a builder's."""
    out: list[Declared] = []
    for declared in named:
        if declared.kind == _FIELD_KIND:
            prefix = declared.fq_name + "("
            out += [
                m
                for m in symbols
                if m.kind in _CALLED_KINDS and m.fq_name.startswith(prefix) and m not in out
            ]
        if declared not in out:
            out.append(declared)
    return out


_TYPE_KINDS = frozenset({"Type", "Class", "Struct", "Interface", "Enum", "Trait", "Other"})
_METHOD_KIND = "Method"
_FIELD_KIND = "Field"
_CALLED_KINDS = frozenset({"Method", "Function"})


def named_past_body(
    symbols: Sequence[Declared], reasons: Sequence[str], terms: QueryTerms, body: str
) -> Declared | None:
    """The declaration the query names, by which the hit was found, when it lies past the
    stored text (a file longer than 64 Ki characters): no stored line can show it, and the
    best stored line would point somewhere else."""
    stored_lines = body.count("\n") + 1
    named = {r.removeprefix(SYMBOL_REASON) for r in reasons if r.startswith(SYMBOL_REASON)}
    past = [s for s in symbols if s.start_line > stored_lines and s.fq_name in named]
    if not past:  # most hits: what follows reads the whole body
        return None
    # a constructor is named by its class's name, whose head is stored: QA on
    # apache/commons-io, `tests for FileUtils copyDirectory` pointed FileUtils.java at its
    # `FileUtils()` (line 3599, past the stored text), not at the stored copyDirectory
    stored = {s.fq_name for s in symbols if s.start_line <= stored_lines}
    past = [s for s in past if not _constructor_of(s, stored)]
    # a namesake the reasons name is stored, and its lines show the name: QA on
    # benoitc/gunicorn, `the default number of workers` pointed config.py at
    # `DirtyWorkers.default` (past the text), its first reason being the stored `Workers.default`
    shown = {s.name for s in symbols if s.start_line <= stored_lines and s.fq_name in named}
    past = [s for s in past if s.name not in shown]
    # of overloads, the one whose parameter types the query writes (`writeStringToFile(File,
    # String, Charset, boolean)`), as declaration_named orders them, though a reason names
    # another (search names the first overload)
    typed = {name: set(types) for name, types in terms.parameters}
    past = [_typed(s, symbols, typed.get(s.name.lower(), set()), stored_lines) for s in past]
    # a name the query writes as code before one a plain word of it names: QA on
    # valyala/fasthttp, `validate trailer values in parseTrailer` pointed header.go at
    # `RequestHeader.validate`, the first in the file, not at `parseTrailer`
    for wanted in (set(terms.identifiers), terms.words):
        for symbol in past:
            if symbol.name.lower() in wanted:
                return symbol
    if terms.tests_asked or about_tests(terms.words, terms.identifiers):
        # a test named for a name the query writes (`tests for is_complete_fast`: QA on
        # hyperium/hyper pointed role.rs at the function, its `test_is_complete_fast` being
        # past the stored text); a qualified name by its last part (`tests for
        # TextStringBuilder.reverse`: QA on apache/commons-text pointed TextStringBuilderTest
        # at a stored test naming TextStringBuilder, its `testReverse` being past the text)
        names = {*terms.identifiers, *(parts[-1] for parts in terms.qualified if parts)}
        for symbol in past:
            name = symbol.name.lower()
            if "test" in name and any(i in name for i in names):
                return symbol
    # else one whose name holds a word no stored line holds: QA on sharkdp/fd, `tests for
    # hyperlink encoding` found tests.rs by `test_hyperlink` past its stored text and pointed
    # at `#[cfg(test)] fn get_test_env_with_abs_path`, a stored line holding only `test`
    lowered = body.lower()
    unsaid = {word for word in terms.words if body and needle(word) not in lowered}
    found = next((s for s in past if unsaid.intersection(tokenize(s.name))), None)
    if found is None or terms.tests_asked or about_tests(terms.words, terms.identifiers):
        return found
    # a test of a Rust `#[cfg(test)]` module, for a query not about tests: the code a
    # `symbol:` reason names in the stored text comes first. QA on hyperium/hyper,
    # `recognize \n\r\n as a head terminator in the partial-read fast path` pointed role.rs
    # (112 KB) at `test_parse_accepts_lf_crlf_terminator` (no snippet), for `terminator`,
    # not at the `is_complete_fast` the next reason names, which the commit changed
    tests = test_module_ranges(symbols, body.split("\n"))
    if not any(lo <= found.start_line <= hi for lo, hi in tests):
        return found
    code = (
        s
        for s in reasons_named(symbols, reasons)
        if s.start_line <= stored_lines and not any(lo <= s.start_line <= hi for lo, hi in tests)
    )
    return next(code, found)


def _constructor_of(symbol: Declared, stored: Collection[str]) -> bool:
    """Whether `symbol` bears the name of the declaration it is a member of (a Java, C# or C++
    constructor) and that declaration is one of `stored`."""
    owner = symbol.fq_name.split("(", 1)[0].rpartition(".")[0]
    return owner in stored and owner.rpartition(".")[2] == symbol.name


def _typed(
    symbol: Declared,
    symbols: Sequence[Declared],
    types: Collection[tuple[str, ...]],
    stored_lines: int,
) -> Declared:
    """The overload of `symbol` past the stored text that the parameter `types` fit
    (typed_overloads.fitting_overload: `printWithEscapes(Reader)` fits the Reader overload of
    two), else `symbol`."""
    if not types:
        return symbol
    name = symbol.fq_name.split("(", 1)[0]
    overloads = [
        s for s in symbols if s.start_line > stored_lines and s.fq_name.split("(", 1)[0] == name
    ]
    return fitting_overload(overloads, types) or symbol
