"""Which tree-sitter grammar (from its own registry wheel) and query file serve a language.

Languages are keyed by the ids of processors.language, except TSX, which shares the
"typescript" id but needs its own grammar (chosen by the `.tsx` extension). Grammars and
compiled queries (a QueryPlan: the language's query passes and each pattern's role) are cached
per process: processors may run in spawned workers, and each worker builds them once.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from importlib import resources

from tree_sitter import Language, Parser, Query

from schemas.symbols import SYMBOL_KINDS


@dataclass(frozen=True, slots=True, eq=False)
class Grammar:
    """One grammar and how its query texts read. The instances are the singletons of GRAMMARS,
    compared and hashed by identity: the per-file cache lookups (parser_of, plan_of) then cost
    no hash of every field."""

    key: str  # the grammar's name, e.g. "tsx"
    module: str  # the grammar wheel's module
    function: str  # its function returning the language pointer
    package_sep: str = "."  # separator inside @package / @import texts, normalised to "."
    # node types of decorators/annotations/attributes, kept in signatures (bounded), and the
    # text that betrays one inside a declaration (so the common case skips the tree walk)
    decorations: frozenset[str] = frozenset()
    decoration_mark: str = "@"
    # the query files' stems, read in this order, when not just `key`: what grammars share
    # lives in a file of its own (es_modules.scm: TS/JS imports; jsx.scm: JSX, which only
    # some of them parse: a TypeScript grammar has no JSX nodes)
    queries: tuple[str, ...] = ()

    @property
    def query_files(self) -> tuple[str, ...]:
        return self.queries or (self.key,)


_AT = frozenset({"decorator"})
_JAVA = frozenset({"annotation", "marker_annotation"})
_ATTRS = frozenset({"attribute_list"})


GRAMMARS: dict[str, Grammar] = {
    "python": Grammar("python", "tree_sitter_python", "language", ".", _AT),
    "typescript": Grammar(
        "typescript",
        "tree_sitter_typescript",
        "language_typescript",
        ".",
        _AT,
        queries=("typescript", "es_modules"),
    ),
    # TSX is TypeScript plus JSX: TypeScript's query file and JSX's
    "tsx": Grammar(
        "tsx",
        "tree_sitter_typescript",
        "language_tsx",
        ".",
        _AT,
        queries=("typescript", "es_modules", "jsx"),
    ),
    "javascript": Grammar(
        "javascript",
        "tree_sitter_javascript",
        "language",
        ".",
        _AT,
        queries=("javascript", "es_modules", "jsx"),
    ),
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


# what betrays C++ in a `.h` file, which the language classifier calls C (spec §2.2)
_CPP_HEADER = re.compile(
    r"^\s*(?:class|namespace|template)\b|^\s*(?:public|private|protected)\s*:|\bstd::",
    re.MULTILINE,
)


def grammar_for(language: str, path: str, body: str = "") -> Grammar | None:
    """The grammar of a file, or None when we extract no symbols for its language. (JSX
    parses with the JavaScript grammar; TSX needs its own; a `.h` header whose `body`
    declares classes, namespaces or templates parses as C++.)"""
    if language == "typescript" and path[-4:].lower() == ".tsx":
        return GRAMMARS["tsx"]
    if language == "c" and path[-2:].lower() == ".h" and _CPP_HEADER.search(body):
        return GRAMMARS["cpp"]
    return GRAMMARS.get(language)


@functools.cache
def language_of(grammar: Grammar) -> Language:
    module = importlib.import_module(grammar.module)
    return Language(getattr(module, grammar.function)())


@functools.cache
def parser_of(grammar: Grammar) -> Parser:
    return Parser(language_of(grammar))


def query_source(grammar: Grammar) -> str:
    """The query files of a grammar, shipped as package data (queries/<stem>.scm), as one."""
    queries = resources.files("processors.symbols").joinpath("queries")
    return "\n".join(
        queries.joinpath(f"{stem}.scm").read_text(encoding="utf-8") for stem in grammar.query_files
    )


@dataclass(frozen=True, slots=True)
class QueryPass:
    """One compiled query over a file's tree and what each of its patterns is for.

    `ref_patterns` only capture a reference (`@ref.*`): the extractor takes their one node
    without looking at capture names. `element_patterns` capture a name that is a reference
    unless written in lower case, past a quote and leading underscores (`@ref.element`): a JSX
    element's (`<div>` is HTML), a Java, Kotlin or C# class's before a dot (`list.size()`,
    `_repo.Get()` read variables).
    `value_patterns` capture a name read from something as a value (`@ref.value`), a
    reference only where the language's rules say an import qualifies it
    (LanguageRules.imported_member).
    `def_capture[i]` is the `@def.<Kind>` capture name of pattern i, "" when it declares
    nothing. `implied_names[i]` is the name pattern i's declarations or scope have without
    writing it (`@name.Companion`: Kotlin's unnamed companion object is `Companion`; a Rust
    `impl Tr for ()` is the scope `unit`), "" for most.
    `rank[i]` is pattern i's place in the query file:
    when two patterns declare the same node, the earlier one wins.
    `max_start_depth` (0 for the top pass) lets tree-sitter skip the tree below it.
    """

    query: Query
    ref_patterns: frozenset[int]
    def_capture: tuple[str, ...]
    misc_patterns: frozenset[int]  # patterns with a scope, package, import or export capture
    rank: tuple[int, ...]
    max_start_depth: int | None = None
    element_patterns: frozenset[int] = frozenset()
    implied_names: tuple[str, ...] = ()
    value_patterns: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """A language's query file compiled as at most two passes.

    The main pass walks the whole tree once, for declarations and references alike: the walk
    (not building the matches) is most of a query's price, so it is done once. Patterns
    rooted at the file's root node (`(program (lexical_declaration ...))`: top-level consts)
    go to a second pass limited to start at the root: in the main pass their partial matches
    stayed alive for the whole walk and were checked at every node; limited to the root,
    tree-sitter visits little more than the root's children (instructions of the queries over
    rxjs's JavaScript, counted with valgrind: 614M as one query, 539M as two passes).
    """

    passes: tuple[QueryPass, ...]


def _pattern_texts(query: Query, source: bytes) -> list[str]:
    return [
        source[query.start_byte_for_pattern(i) : query.end_byte_for_pattern(i)].decode("utf-8")
        for i in range(query.pattern_count)
    ]


def _root_type(grammar: Grammar) -> str:
    """The node type of a file's root (`module`, `program`, `source_file`, ...)."""
    return str(parser_of(grammar).parse(b"").root_node.type)


def _compile_pass(
    grammar: Grammar,
    texts: list[str],
    ranks: list[int],
    max_start_depth: int | None,
    compiled: Query | None = None,
) -> QueryPass:
    query = compiled if compiled is not None else Query(language_of(grammar), "\n".join(texts))
    refs: set[int] = set()
    elements: set[int] = set()
    values: set[int] = set()
    misc: set[int] = set()
    defs: list[str] = []
    implied: list[str] = []
    for i, text in enumerate(texts):
        kinds = [k for k in re.findall(r"@def\.(\w+)", text) if k in SYMBOL_KINDS]
        defs.append(f"def.{kinds[0]}" if kinds else "")
        named = re.findall(r"@name\.(\w+)", text)
        implied.append(named[0] if named else "")
        if "@ref.element" in text:
            elements.add(i)
        elif "@ref.value" in text:
            values.add(i)
        elif "@ref." in text and not kinds and "@import" not in text:
            refs.add(i)
        if any(f"@{c}" in text for c in ("scope", "package", "import", "decorated", "export")):
            misc.add(i)
    if "@ref.qualifier" in "".join(texts):
        query.disable_capture("ref.qualifier")
    return QueryPass(
        query,
        frozenset(refs),
        tuple(defs),
        frozenset(misc),
        tuple(ranks),
        max_start_depth,
        frozenset(elements),
        tuple(implied),
        frozenset(values),
    )


@functools.cache
def plan_of(grammar: Grammar) -> QueryPlan:
    """The compiled passes of a language and their per-pattern roles. Our query files use
    only the predicates tree-sitter implements (`#eq?`, `#not-eq?`, `#match?`): 0.26 treats an
    unknown one as always true, so a typo there would silently match everything.
    `@ref.qualifier` only documents a pattern; it is disabled so that a reference match
    carries exactly one capture."""
    source = query_source(grammar)
    whole = query_of(grammar)
    texts = _pattern_texts(whole, source.encode("utf-8"))
    root = _root_type(grammar)
    top = [i for i, t in enumerate(texts) if re.match(rf"\(\s*{re.escape(root)}[\s)]", t)]
    if not top:  # one pass: the query as compiled (compiling costs up to 0.2 s a language)
        return QueryPlan((_compile_pass(grammar, texts, list(range(len(texts))), None, whole),))
    main = [i for i in range(len(texts)) if i not in top]
    return QueryPlan(
        (
            _compile_pass(grammar, [texts[i] for i in main], main, None),
            _compile_pass(grammar, [texts[i] for i in top], top, 0),
        )
    )


def query_of(grammar: Grammar) -> Query:
    """The whole query file compiled as one."""
    return Query(language_of(grammar), query_source(grammar))
