"""Which tree-sitter grammar (from its own registry wheel) and query file serve a language.

Languages are keyed by the ids of processors.language, except TSX, which shares the
"typescript" id but needs its own grammar (chosen by the `.tsx` extension). Grammars and
compiled queries (a QueryPlan: one query per language and each pattern's role) are cached
per process: processors may run in spawned workers, and each worker builds them once.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from importlib import resources

from tree_sitter import Language, Parser, Query

from processors.language import extension_of
from schemas.symbols import SYMBOL_KINDS


@dataclass(frozen=True, slots=True)
class Grammar:
    key: str  # query file stem, e.g. "tsx"
    module: str  # the grammar wheel's module
    function: str  # its function returning the language pointer
    package_sep: str = "."  # separator inside @package / @import texts, normalised to "."
    # node types of decorators/annotations/attributes, kept in signatures (bounded), and the
    # text that betrays one inside a declaration (so the common case skips the tree walk)
    decorations: frozenset[str] = frozenset()
    decoration_mark: str = "@"


_AT = frozenset({"decorator"})
_JAVA = frozenset({"annotation", "marker_annotation"})
_ATTRS = frozenset({"attribute_list"})


GRAMMARS: dict[str, Grammar] = {
    "python": Grammar("python", "tree_sitter_python", "language", ".", _AT),
    "typescript": Grammar("typescript", "tree_sitter_typescript", "language_typescript", ".", _AT),
    "tsx": Grammar("tsx", "tree_sitter_typescript", "language_tsx", ".", _AT),
    "javascript": Grammar("javascript", "tree_sitter_javascript", "language", ".", _AT),
    "go": Grammar("go", "tree_sitter_go", "language", "/"),
    "java": Grammar("java", "tree_sitter_java", "language", ".", _JAVA),
    "csharp": Grammar("csharp", "tree_sitter_c_sharp", "language", ".", _ATTRS, "["),
    "rust": Grammar(
        "rust", "tree_sitter_rust", "language", "::", frozenset({"attribute_item"}), "#["
    ),
    "c": Grammar("c", "tree_sitter_c", "language"),
    "cpp": Grammar("cpp", "tree_sitter_cpp", "language", "::"),
    "ruby": Grammar("ruby", "tree_sitter_ruby", "language", "::"),
    "php": Grammar("php", "tree_sitter_php", "language_php", "\\", _ATTRS, "#["),
    "kotlin": Grammar("kotlin", "tree_sitter_kotlin", "language", ".", frozenset({"annotation"})),
}


def grammar_for(language: str, path: str) -> Grammar | None:
    """The grammar of a file, or None when we extract no symbols for its language."""
    if language == "typescript" and extension_of(path) == "tsx":
        return GRAMMARS["tsx"]
    if language == "javascript" and extension_of(path) == "jsx":
        return GRAMMARS["javascript"]
    return GRAMMARS.get(language)


@functools.cache
def language_of(grammar: Grammar) -> Language:
    module = importlib.import_module(grammar.module)
    return Language(getattr(module, grammar.function)())


@functools.cache
def parser_of(grammar: Grammar) -> Parser:
    return Parser(language_of(grammar))


def query_source(key: str) -> str:
    """The query file of a language, shipped as package data (queries/<key>.scm)."""
    return (
        resources.files("processors.symbols")
        .joinpath("queries")
        .joinpath(f"{key}.scm")
        .read_text(encoding="utf-8")
    )


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """A language's query compiled once, with what each pattern is for.

    One query, one pass over the tree: running declarations and references as two queries
    cost two traversals, and the traversal (not building the matches) is most of a query's
    price. `ref_patterns` are the patterns that only capture a reference (`@ref.*`): the
    extractor takes their one node without looking at capture names. `def_capture[i]` is the
    `@def.<Kind>` capture name of pattern i, "" when it declares nothing.
    """

    query: Query
    ref_patterns: frozenset[int]
    def_capture: tuple[str, ...]
    misc_patterns: frozenset[int]  # patterns with a scope, package or import capture


def _pattern_texts(query: Query, source: bytes) -> list[str]:
    return [
        source[query.start_byte_for_pattern(i) : query.end_byte_for_pattern(i)].decode("utf-8")
        for i in range(query.pattern_count)
    ]


@functools.cache
def plan_of(grammar: Grammar) -> QueryPlan:
    """The compiled query of a language and its per-pattern roles. Our query files use no
    predicates: tree-sitter 0.26 treats an unknown predicate as always true, so a typo there
    would silently match everything. `@ref.qualifier` only documents a pattern; it is disabled
    so that a reference match carries exactly one capture."""
    source = query_source(grammar.key)
    query = query_of(grammar)
    refs: set[int] = set()
    misc: set[int] = set()
    defs: list[str] = []
    for i, text in enumerate(_pattern_texts(query, source.encode("utf-8"))):
        kinds = re.findall(r"@def\.(\w+)", text)
        kinds = [k for k in kinds if k in SYMBOL_KINDS]
        defs.append(f"def.{kinds[0]}" if kinds else "")
        if "@ref." in text and not kinds and "@import" not in text:
            refs.add(i)
        if any(f"@{c}" in text for c in ("scope", "package", "import", "decorated")):
            misc.add(i)
    query.disable_capture("ref.qualifier")
    return QueryPlan(query, frozenset(refs), tuple(defs), frozenset(misc))


def query_of(grammar: Grammar) -> Query:
    """The whole query file compiled as one."""
    return Query(language_of(grammar), query_source(grammar.key))
