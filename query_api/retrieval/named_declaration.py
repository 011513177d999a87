"""The declaration a qualified name in a query names in a file (`ZshComplete.format_completion`,
`Router::route`, `getOptionValue(Option, String)`): a hit's lines are that declaration's
(hit_details)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from processors.qualified_names import declared_parameters, shared_trailing_parts
from processors.symbols.extract import module_prefix
from processors.symbols.languages.python import import_name
from processors.symbols.languages.rust import ANCHORS
from query_api.retrieval.typed_overloads import typed_overload
from query_api.symbols.overloads import stub_ranges
from streams.stores.views.symbol_spans import Declared

if TYPE_CHECKING:
    from query_api.retrieval.hit_details import QueryTerms

FIELD_KIND = "Field"  # a type's field or a module's variable
OVERLOAD_WORDS = frozenset({"overload", "overloads", "overloaded", "stub", "stubs"})


def declaration_named(
    symbols: Sequence[Declared],
    terms: QueryTerms,
    path: str,
    packages: set[str],
    lines: Sequence[str] = (),
) -> Declared | None:
    """The declaration a qualified name in the query names (`click.shell_completion.
    ZshComplete`, `ZshComplete.format_completion`, `Router::route`): the one whose
    qualified name and the query's agree on the most trailing parts, at least two. The
    file's text never holds the dotted name whole, so its lines would otherwise be those
    holding the most of its words (another class's `format_completion`). Of two agreeing
    on as many, the one whose parameter types the query writes after the name wins (Java's
    `CommandLine.getOptionValue(Option, String)`, not the first of its fifteen overloads),
    then the one spelled in the query's case (Go's `CheckedEntry.before` field and
    `CheckedEntry.Before` method), then one that is no field (reqwest's blocking
    `ClientBuilder` has a field and a method `timeout`: `ClientBuilder.timeout` is the
    method), then no overload stub of the file's `lines` (werkzeug's
    `TypeConversionDict.get` pointed at the first of five `@t.overload` stubs), then the
    one the query writes first (a stack trace's top frame, not whichever of its frames the
    file declares first), then the one whose lines hold the most of the query's words, then
    the longest: of overloads alike, the one holding the code, which the others delegate
    to. QA on apache/commons-text: `Keep WordUtils.wrap from splitting a surrogate pair`
    pointed at the first of three `wrap`s, `return wrap(str, wrapLength, null, false);`,
    not the one wrapping, whose lines say `surrogate pair`. Without a qualified name, the
    one overload the query writes by its parameter types (typed_overloads)."""
    last_names = {parts[-1] for parts in terms.qualified}
    parameters = dict(terms.parameters)
    # a request about the overloads themselves (`Add Literal[True] overload for
    # MultiDict.to_dict()`, a werkzeug commit that added a stub) keeps the file's order
    found = lines and terms.qualified and not terms.words & OVERLOAD_WORDS
    stubs = {first for first, _ in stub_ranges(symbols, lines)} if found else set()
    best: tuple[int, bool, bool, bool, bool, int, int, int, Declared] | None = None
    rust = path.endswith(".rs")
    python = path.endswith((".py", ".pyi"))
    spelled = terms.spelled if len(terms.spelled) == len(terms.qualified) else terms.qualified
    if rust:
        spelled = tuple(tuple(p for p in parts if p.lower() not in ANCHORS) for parts in spelled)
    written = [tuple(p for p in parts if p not in ANCHORS) for parts in terms.qualified]
    for symbol in symbols:
        if symbol.name.lower() not in last_names:
            continue
        shown = (
            _rust_shown(symbol.fq_name, path)
            if rust
            else import_name(symbol.fq_name, path, packages)
        )
        pairs = zip(written if rust else terms.qualified, spelled, strict=True)
        for at, (parts, as_spelled) in enumerate(pairs):
            shared = shared_trailing_parts(shown, parts)
            if not shared and python:
                shared = through_package(shown, symbol.fq_name, path, parts)
            if not shared:
                continue
            exact = shared_trailing_parts(shown, as_spelled, exact_case=True) == shared
            typed = declared_parameters(symbol.fq_name) in parameters.get(parts[-1], ())
            stub = symbol.start_line in stubs
            key = (shared, typed, exact, symbol.kind != FIELD_KIND, not stub, -at)
            if best is not None and key < best[:6]:
                continue
            length = symbol.end_line - symbol.start_line
            full = (*key, _words_held(symbol, lines, terms.words), length)
            if best is None or full > best[:8]:
                best = (*full, symbol)
    return best[8] if best else typed_overload(symbols, terms)


def _words_held(symbol: Declared, lines: Sequence[str], words: frozenset[str]) -> int:
    """How many of `words` the declaration's lines hold (as substrings, lower-cased)."""
    if not lines or not words:
        return 0
    text = "\n".join(lines[symbol.start_line - 1 : symbol.end_line]).lower()
    return sum(word in text for word in words)


def through_package(shown: str, fq_name: str, path: str, parts: Sequence[str]) -> int:
    """How many parts a Python name written through a package above the declaring module
    agrees on (`jinja2.Environment.compile_expression` for `jinja2.environment.Environment.
    compile_expression`: the package re-exports the module's class), else 0: the written
    name is a package of `shown`'s module, then the declaration's name inside its module.
    QA on pallets/jinja: `jinja2.Environment` pointed environment.py at a docstring writing
    it, not at the class."""
    module = module_prefix(path, "python")
    fq = fq_name.split("(", 1)[0]
    if not fq.startswith(module + "."):
        return 0
    inside = fq[len(module) + 1 :].casefold().split(".")
    outer = shown.casefold().split(".")[: -len(inside)]
    written = [part.casefold() for part in parts]
    package, tail = written[: -len(inside)], written[-len(inside) :]
    if tail != inside or not package or len(package) >= len(outer):
        return 0
    return len(written) if outer[: len(package)] == package else 0


def _rust_shown(fq_name: str, path: str) -> str:
    """A Rust declaration's name with its module path, as a `use` writes it after `crate::`
    (src/exec/mod.rs's `CommandSet` -> exec.CommandSet): fd's `crate::exec::CommandSet` put
    the hit on exec/mod.rs's `use` lines, which hold the most of its words."""
    *folders, name = path.split("/")
    if "src" in folders:  # the crate's root: what is above it names no module
        folders = folders[folders.index("src") + 1 :]
    stem = name.removesuffix(".rs")
    modules = [*folders, stem] if stem not in _RUST_ROOT_STEMS else folders
    return ".".join([*modules, fq_name])


_RUST_ROOT_STEMS = frozenset({"mod", "lib", "main"})
