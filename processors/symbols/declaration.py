"""A declaration as the extractor holds it between matching and records, what one file's
matches found (Found: what matching.py hands to nesting.py and references.py, and what a
language's import reader fills in), and how a captured name is cleaned into a symbol's name."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

MAX_NAME_CHARS = 200
_SPACE = re.compile(r"\s+")
_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")
_NOT_BETWEEN_WORDS = re.compile(r"(?<!\w) | (?!\w)")


@dataclass(slots=True)
class Declaration:
    """A declaration (or a naming scope, `is_scope`: a Rust `impl`) by its byte span; `fq` is
    filled in by nesting."""

    start: int
    end: int
    kind: str
    name: str
    node: Node
    params: Node | None = None
    parent: str | None = None
    body_start: int | None = None
    is_scope: bool = False
    decl_only: bool = False
    fq: str = ""


@dataclass(frozen=True, slots=True)
class ScopedAlias:
    """An import's local name bound inside a function or a block (TS/JS's `const m =
    require("m")` in a callback, Python's `from .m import f` in a function's body), which
    qualifies the references between `start` and `end` only: `namespace` when it names the
    whole module (TS/JS), `bound` when it names a declaration an unreferenced import still
    uses (Found.bound's). `shadows`: no import but a local binding of the same name (TS/JS's
    `const path = {...}` in a function, under a file's `const path = require("path")`), which
    unbinds the name there: what the file or an outer scope imports under it is not what the
    span's references use (`qualified` is then "")."""

    start: int
    end: int
    local: str
    qualified: str
    namespace: bool
    bound: bool
    shadows: bool = False


Key = tuple[int, int, int | str]  # a declaration's node span and its name's offset (or "scope")
Captures = dict[str, list[Node]]  # one query match: capture name -> its nodes
Slicer = Callable[[int, int], str]  # a file's text between two byte offsets


@dataclass(slots=True)
class Found:
    """What one file's query matches say, before nesting."""

    defs: dict[Key, Declaration] = field(default_factory=dict)
    rank_of: dict[Key, int] = field(default_factory=dict)  # which pattern declared a node
    has_decl_only: bool = False
    package: str = ""
    imports: list[str] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    # TS/JS local names bound to a whole module, not to a name
    namespaces: set[str] = field(default_factory=set)
    bound: dict[str, str] = field(default_factory=dict)  # local name -> the imported declaration
    scoped: list[ScopedAlias] = field(default_factory=list)  # bound in a function or block
    ref_nodes: list[Node] = field(default_factory=list)
    value_nodes: list[Node] = field(default_factory=list)  # `@ref.value`: not yet kept
    decorated: set[int] = field(default_factory=set)  # starts of declarations with decorators
    import_calls: set[int] = field(default_factory=set)  # starts of `require` in `require("x")`
    exports: bool = False  # a top-level `export` statement (an ES module)


def operator_name(text: str) -> str:
    """A C++ operator's name as written once: spaces only between two words (`operator<<`,
    `operator new`, `operator const char*`); a conversion operator's node (`operator bool()
    const`) ends at its parameters."""
    if "(" in text and not text[8:].lstrip().startswith("("):  # not `operator()`
        text = text[: text.index("(")]
    return _NOT_BETWEEN_WORDS.sub("", _SPACE.sub(" ", text.strip()))


def clean_name(text: str, sep: str) -> str:
    if text.isidentifier():  # the common case: nothing to clean
        return text[:MAX_NAME_CHARS]
    if text.startswith("operator"):  # C++ `operator<<`, `operator->`: the brackets are the name
        return operator_name(text)[:MAX_NAME_CHARS]
    # C++ `Box<T>::other` is `Box.other` (not an include's `<stdio.h>`, not `operator<`)
    if "<" in text and text[0] != "<" and "operator" not in text:
        while "<" in text and (cut := _TEMPLATE_ARGS.sub("", text)) != text:
            text = cut
    text = text.strip()
    # a member named by a string (`"T | INVALID"() {}`) keeps the spaces between its words
    quoted = len(text) > 2 and text[0] in "\"'`" and text[-1] == text[0]
    text = text.strip("\"'`;")
    # an include's `<stdio.h>`; not an operator method made of brackets (Ruby's `def <<`)
    if any(c.isalnum() or c == "_" for c in text):
        text = text.strip("<>")
    if sep != ".":
        text = text.replace(sep, ".").strip(".")
    if " " in text or "\n" in text or "\t" in text:
        text = _SPACE.sub(" ", text.strip()) if quoted else _SPACE.sub("", text)
    return text[:MAX_NAME_CHARS]
