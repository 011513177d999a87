"""Where each referenced name of one file stands and what qualifies it: the reference
captures' starts and names, and the qualifier (the `pkg` in `pkg.Name`), the identifier just
before the name in the same member/selector/scoped node, read from the tree only when an
import could be at stake (references.py then resolves qualifiers and owners)."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

from tree_sitter import Node

from processors.symbols.signatures import _node_text

QUALIFIER_TYPES = frozenset(
    {"identifier", "package_identifier", "namespace_identifier", "name", "constant"}
)
# what stands before the dot of a Java type's name: its outer class (`CharStream.Builder`,
# `Outer.Middle.Inner`) or its package (`org.junit.runner.Description`)
_TYPE_SCOPES = frozenset({"type_identifier", "scoped_type_identifier"})
_DOT = ord(".")
# marks a qualifier that is a package written out, no import's name: the qualified name is
# the package and the name (references._Qualified.module)
PACKAGE_PATH = "package:"
# the last byte of `pkg.`, `pkg::`, `pkg->`, `Pkg\\`: a reference after anything else has no
# qualifier, so it needs no look at its siblings
_QUALIFIER_ENDS = frozenset(b".:>\\")
_IDENT_CHARS = frozenset(string.ascii_letters + string.digits + "_$")
_SPACES = frozenset(" \t\r\n\f\v")
# the qualifier chains a file's imports may start, by the node that holds one: TS/JS's
# `z.coerce` (one namespace after the import: what the resolver follows), Python's
# `click.testing` or `a.b.c` (modules of modules, read from the text: references._Qualified)
_CHAINS = {
    "member_expression": re.compile(r"[\w$]+\.[\w$]+"),
    "attribute": re.compile(r"\w+(?:\.\w+)+"),
}
_COLON = ord(":")
MACRO_BANG = "!"  # ends a Rust macro's name, declared or invoked (`log!`)
_PATH_TYPES = frozenset({"scoped_identifier", "crate", "self", "super"})  # Rust's `a::b`
_DOTTED_PATH = re.compile(r"\w+(?:\.\w+)*")  # `grep.printer`, not `Vec.<u8>`
_START_BYTE = attrgetter("start_byte")
# the qualifier of a member whose object no import can name (`f().json()`, `"".join()`,
# `x[0].get()`): unlike None (no qualifier), it keeps the name from being read as a bare
# name an import binds (`import json` made `f().json()` a reference to the module json)
UNRESOLVED = "?"
_END_BYTE = attrgetter("end_byte")


@dataclass(slots=True)
class Sites:
    """The file's reference captures in match order: start bytes, names and qualifiers."""

    starts: list[int]
    names: list[str]
    qualifiers: list[str | None]


def reference_sites(
    ref_nodes: list[Node],
    import_calls: set[int],
    aliases: dict[str, str],
    body: str,
    src: bytes,
    text: Callable[[int, int], str],
    chains: bool = False,
    paths: bool = False,
    path_from_file: Callable[[Node, str], str] | None = None,
) -> Sites:
    """Each captured reference's start, name and qualifier (None when there is none or no
    import could resolve it). `import_calls`: the starts of `require` in `require("x")`,
    which imports x and calls nothing the repository declares. `chains` (TS/JS, Python): a
    qualifier may be a chain of names starting with an import (`z.coerce` in
    `z.coerce.string()`, a namespace of a namespace, resolved by the dependents resolver one
    module at a time; Python's `click.testing` in `click.testing.CliRunner()`).
    `paths` (Rust): every `a::b::` path qualifies the name after it, imported or not
    (`crate::flags::parse()`, `grep::printer::Stats`): the resolver knows the crates;
    `path_from_file` writes such a path from the file's module (Rust's `super::x()` inside
    an inline `mod tests` is the file's `x`)."""
    if import_calls:
        ref_nodes = [n for n in ref_nodes if n.start_byte not in import_calls]
    starts: list[int] = list(map(_START_BYTE, ref_nodes))
    ends: list[int] = list(map(_END_BYTE, ref_nodes))
    if len(src) == len(body):  # ASCII: slice the str directly
        ref_names = [body[start:end] for start, end in zip(starts, ends, strict=True)]
    else:
        ref_names = [text(start, end) for start, end in zip(starts, ends, strict=True)]
    if paths:
        _mark_macro_invocations(ref_names, ends, src)
    qualifiers: list[str | None] = [None] * len(starts)  # the text before each name
    if aliases or paths:  # a qualifier only matters when an import may resolve it
        look = _QualifierLook(body, src, text, aliases, chains, paths, path_from_file)
        for i, start in enumerate(starts):
            node = ref_nodes[i]
            if look.worth_asking(start, ref_names[i]) or _in_scoped_type(node, src, start):
                qualifiers[i] = look.qualifier(node)
    return Sites(starts, ref_names, qualifiers)


def _mark_macro_invocations(names: list[str], ends: list[int], src: bytes) -> None:
    """Rust: a name invoked as a macro (`log!(...)`, `log::info!(...)`) is referenced as
    `log!`, the name its declaration is recorded under (nesting.records), so a method or a
    function of the same name (`self.log(r)`, `fn log`) is another name. A reference capture
    followed by `!` (not `!=`) is only ever a macro's."""
    for i, end in enumerate(ends):
        if src[end : end + 1] == b"!" and src[end + 1 : end + 2] != b"=":
            names[i] += MACRO_BANG


@dataclass(slots=True)
class _QualifierLook:
    """Which references' qualifiers to read from the tree, and reading one."""

    body: str
    src: bytes
    text: Callable[[int, int], str]
    aliases: dict[str, str]
    chains: bool
    paths: bool
    path_from_file: Callable[[Node, str], str] | None

    def worth_asking(self, start: int, name: str) -> bool:
        """Whether a qualifier may be at stake: the tree says exactly what qualifies a name,
        at the price of walking to its parent, so ask it only where an import could resolve
        the name or the word written before the separator (otherwise any qualifier leaves the
        reference unqualified: references._references)."""
        src = self.src
        if not start or src[start - 1] not in _QUALIFIER_ENDS:
            return False  # no `x.` before the name: no qualifier
        if self.paths and src[start - 1] == _COLON:
            return True
        if not self.aliases:
            return False
        if len(src) != len(self.body):  # offsets are bytes: no str look-behind
            return True
        body, aliases = self.body, self.aliases
        return (
            name in aliases
            or _alias_before(body, start, aliases)
            or (self.chains and _chain_from_alias(body, start, aliases))
        )

    def qualifier(self, node: Node) -> str | None:
        before = node.prev_named_sibling
        if before is None:
            return None
        if before.type in QUALIFIER_TYPES:
            return _node_text(self.text, before)
        if before.type in _TYPE_SCOPES:
            return _type_scope(_node_text(self.text, before))
        pattern = _CHAINS.get(before.type) if self.chains else None
        if pattern is not None:
            chain = _node_text(self.text, before)
            return chain if pattern.fullmatch(chain) else UNRESOLVED
        if self.paths and before.type in _PATH_TYPES:
            path = _node_text(self.text, before).replace("::", ".")
            if not _DOTTED_PATH.fullmatch(path):
                return UNRESOLVED
            return self.path_from_file(node, path) if self.path_from_file else path
        return UNRESOLVED


def _in_scoped_type(node: Node, src: bytes, start: int) -> bool:
    """Whether `node` is the name after the dot of a Java scoped type (`Outer.Inner`,
    `org.junit.runner.Description`), qualified whether or not an import names the word
    before the dot: a package written out is no import's."""
    if not start or src[start - 1] != _DOT or node.type != "type_identifier":
        return False
    parent = node.parent
    return parent is not None and parent.type == "scoped_type_identifier"


def _type_scope(text: str) -> str:
    """What qualifies a Java type named after `text` and a dot: a package (lower case,
    `org.junit.runner`), marked as one, or a class an import may name (`Outer.Middle`)."""
    scope = "".join(text.split())
    if not _DOTTED_PATH.fullmatch(scope):
        return UNRESOLVED
    return PACKAGE_PATH + scope if scope[0].islower() else scope


def _alias_before(body: str, start: int, aliases: dict[str, str]) -> bool:
    """Whether the word just before the separator (`.`, `::`, `->`, `\\`) that ends at `start`
    may be an import alias: exactly when it is one, or when space (which the tree skips, a
    chain's `\n  .pipe(`) stands between them."""
    sep = start - 1
    if sep and body[sep] in ":>" and body[sep - 1] in ":-":
        sep -= 1
    if not sep:
        return False
    if body[sep - 1] in _SPACES:
        return True
    word = sep
    while word and body[word - 1] in _IDENT_CHARS:
        word -= 1
    return body[word:sep] in aliases


def _chain_from_alias(body: str, start: int, aliases: dict[str, str]) -> bool:
    """Whether the `a.b.` just before `start` is a chain of names whose first is an import
    alias (`z.coerce.` before `string`)."""
    word = start - 1
    if not word or body[word] != ".":
        return False
    while word and (body[word - 1] in _IDENT_CHARS or body[word - 1] == "."):
        word -= 1
    first, dot, _rest = body[word : start - 1].partition(".")
    return bool(dot) and first in aliases
