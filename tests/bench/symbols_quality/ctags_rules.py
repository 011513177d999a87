"""ctags' rules the benchmark applies to its tags: which scopes are local (what a function
or a variable declares, at any depth) and, in C and C++, which prototypes a file also
defines (ctags' signature tells overloads apart)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.bench.symbols_quality.references import Tag

FUNCTION, FIELD = "function", "field"


# a tag's container, as ctags writes it: (path, scope, scope kind)
Scope = tuple[str, str, str]


def local_scopes(tags: list[dict[str, str]], kinds: Mapping[str, str]) -> set[Scope]:
    """The containers whose declarations are local: a function or a variable, and any
    declaration inside one, at any depth (the members of PHP's `new class (...) { ... }` in a
    method have the anonymous class as their container, and it the method; so do a C++
    struct's in a function). A container is the tag of that name and kind, so an interface
    is not taken for the `const` of the same name (TypeScript's declaration merging)."""
    outer: dict[Scope, Scope | None] = {}
    for tag in tags:
        path, scope, name = tag.get("path", ""), tag.get("scope", ""), tag.get("name", "")
        up = (path, scope, tag.get("scopeKind", "")) if scope else None
        for full in (f"{scope}::{name}", f"{scope}.{name}") if scope else (name,):
            outer.setdefault((path, full, tag.get("kind", "")), up)
    known: dict[Scope, bool] = {}

    def local(container: Scope) -> bool:
        if container not in known:
            known[container] = False  # a cycle of names is no function
            up = outer.get(container)
            known[container] = kinds.get(container[2]) in (FUNCTION, FIELD) or (
                up is not None and local(up)
            )
        return known[container]

    containers = {
        (tag.get("path", ""), tag["scope"], tag.get("scopeKind", ""))
        for tag in tags
        if tag.get("scope")
    }
    return {container for container in containers if local(container)}


# a parameter's name: the last word of a parameter of more than one word, after its type
# (`const char* s`, `FILE *f`), before a default (`bool flag = false`)
_PARAMETER_NAME = re.compile(r"(?<=[\w*&>\]\s])\s*\b[A-Za-z_]\w*\s*$")
_TYPE_WORDS = frozenset({"int", "char", "long", "short", "double", "float", "unsigned", "signed"})


def parameter_types(signature: str | None) -> str:
    """ctags' signature (`(const char* s, int n = 0) const`) as its parameters' types
    without names, defaults and spaces (`constchar*,int`): a C++ overload is told apart
    by them."""
    if not signature or not signature.startswith("("):
        return ""
    types = []
    for parameter in _top_level_split(signature[1:])[0]:
        written = parameter.split("=", 1)[0].strip()
        named = _PARAMETER_NAME.search(written)
        if named and named.group(0).strip() not in _TYPE_WORDS:
            written = written[: named.start()]
        types.append("".join(written.split()))
    return ",".join(t for t in types if t and t != "void")


def _top_level_split(after_paren: str) -> tuple[list[str], int]:
    """A parameter list's parameters, split at the commas outside brackets up to its `)`,
    and where that `)` is."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, char in enumerate(after_paren):
        if char in "(<[":
            depth += 1
        elif char in ")>]":
            if depth == 0:
                parts.append(after_paren[start:i])
                return parts, i
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(after_paren[start:i])
            start = i + 1
    parts.append(after_paren[start:])
    return parts, len(after_paren)


def defined_prototypes_dropped(heads: list[tuple[Tag, tuple[str, str, str]]]) -> list[Tag]:
    """Without the prototypes of functions the same file defines, with the same scope and
    parameter types: we report a declaration without a body only when the file has no
    definition of it (nesting.without_declared_only); a deleted or defaulted overload
    (`file(const file&) = delete;` beside `file(int fd) {...}`) is declared only."""
    defined = {head for tag, head in heads if tag.kind == "function"}
    return [tag for tag, head in heads if tag.kind != "prototype" or head not in defined]
