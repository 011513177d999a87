"""Which tree-sitter grammar (from its own registry wheel) and query file serve a language.

Languages are keyed by the ids of processors.language, except TSX, which shares the
"typescript" id but needs its own grammar (chosen by the `.tsx` extension). Grammars and
compiled queries are cached per process: processors may run in spawned workers, and each
worker builds them once on first use.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from importlib import resources

from tree_sitter import Language, Parser, Query

from processors.language import extension_of


@dataclass(frozen=True, slots=True)
class Grammar:
    key: str  # query file stem, e.g. "tsx"
    module: str  # the grammar wheel's module
    function: str  # its function returning the language pointer
    package_sep: str = "."  # separator inside @package / @import texts, normalised to "."


GRAMMARS: dict[str, Grammar] = {
    "python": Grammar("python", "tree_sitter_python", "language"),
    "typescript": Grammar("typescript", "tree_sitter_typescript", "language_typescript"),
    "tsx": Grammar("tsx", "tree_sitter_typescript", "language_tsx"),
    "javascript": Grammar("javascript", "tree_sitter_javascript", "language"),
    "go": Grammar("go", "tree_sitter_go", "language", "/"),
    "java": Grammar("java", "tree_sitter_java", "language"),
    "csharp": Grammar("csharp", "tree_sitter_c_sharp", "language"),
    "rust": Grammar("rust", "tree_sitter_rust", "language", "::"),
    "c": Grammar("c", "tree_sitter_c", "language"),
    "cpp": Grammar("cpp", "tree_sitter_cpp", "language", "::"),
    "ruby": Grammar("ruby", "tree_sitter_ruby", "language", "::"),
    "php": Grammar("php", "tree_sitter_php", "language_php", "\\"),
    "kotlin": Grammar("kotlin", "tree_sitter_kotlin", "language"),
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


def split_patterns(source: str) -> tuple[str, str]:
    """(declaration/import patterns, reference patterns) of a query file.

    References are most of the matches and need no grouping, so they run as a separate query
    through `QueryCursor.captures` (one list per capture name), which is much cheaper than a
    dict per match. Top-level forms are split by parenthesis depth (strings and `;` comments
    skipped); a form is a reference pattern when it captures `@ref.`.
    """
    forms: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == ";" and depth == 0:
            i = source.find("\n", i)
            if i < 0:
                break
            start = i + 1
        elif ch == '"':
            i += 1
            while i < len(source) and source[i] != '"':
                i += 2 if source[i] == "\\" else 1
        elif ch in "([":
            if depth == 0:
                start = i
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and ch == "\n" and source[start:i].strip():
            forms.append(source[start:i])
            start = i + 1
        i += 1
    if source[start:].strip():
        forms.append(source[start:])
    refs = [f for f in forms if "@ref." in f]
    return "\n".join(f for f in forms if "@ref." not in f), "\n".join(refs)


@functools.cache
def queries_of(grammar: Grammar) -> tuple[Query, Query | None]:
    """The compiled (declarations, references) queries. Our query files use no predicates:
    tree-sitter 0.26 treats an unknown predicate as always true, so a typo there would
    silently match everything."""
    definitions, references = split_patterns(query_source(grammar.key))
    language = language_of(grammar)
    return Query(language, definitions), Query(language, references) if references else None


def query_of(grammar: Grammar) -> Query:
    """The whole query file compiled as one (to check it)."""
    return Query(language_of(grammar), query_source(grammar.key))
