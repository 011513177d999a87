"""Go: a name read bare (`return DefaultTimeout`, `limit := MaxRetries * n`) that nothing in
its declaration binds is a package-level declaration, of this file or of another file of the
package: Go has no other scope between a function and its package (an import's name is only
ever a selector's operand, and the predeclared `nil`, `true`, `iota` are no declarations).
logrus's text_formatter.go reads `FieldKeyMsg`, declared in formatter.go, and was no
dependent of it: a var or a const is neither called nor written as a type, the only uses
the query captured.

A name the top-level declaration around it binds (a parameter, the receiver, a named
result, `:=`, a `var` or `const` in a body, a `range` or type switch variable, a closure's
parameter) is its local, anywhere in that declaration: a block-level binding is taken for
the whole function, which may miss a package-level read of the same name elsewhere in it,
but never takes a local for the package's. A composite literal's key is a struct's field
(`T{Name: x}`), except in a map literal (`map[Level]string{PanicLevel: "panic"}`), where it
is a value.
"""

from __future__ import annotations

import functools
from bisect import bisect_right

from tree_sitter import Node, Query, QueryCursor, Tree

from processors.symbols.grammars import GRAMMARS, language_of

# the identifiers a name is read or bound by; `@local`: bound in the declaration around it,
# `@local.spec` too unless that is a top-level var, const or type declaration, whose specs
# declare the package's names
_READS_AND_BINDINGS = """
(identifier) @read
(parameter_declaration (identifier) @local)
(variadic_parameter_declaration (identifier) @local)
(type_parameter_declaration (identifier) @local)
(short_var_declaration left: (expression_list (identifier) @local))
(var_spec (identifier) @local.spec)
(const_spec (identifier) @local.spec)
(type_spec name: (type_identifier) @local.spec)
(type_alias name: (type_identifier) @local.spec)
(range_clause left: (expression_list (identifier) @local) ":=")
(type_switch_statement alias: (expression_list (identifier) @local))
(receive_statement left: (expression_list (identifier) @local) ":=")
(function_declaration name: (identifier) @declared)
(keyed_element key: (literal_element (identifier) @key))
(composite_literal type: (map_type)
  body: (literal_value (keyed_element key: (literal_element (identifier) @map_key))))
(call_expression function: (identifier) @called)
"""
# Go's predeclared constants and types (a type argument, `GetState[string](c, k)`, is an
# identifier) and the blank identifier: read bare, declared by no file
_PREDECLARED = frozenset(
    {b"_", b"nil", b"true", b"false", b"iota", b"any", b"bool", b"byte", b"comparable"}
    | {b"error", b"complex64", b"complex128", b"float32", b"float64", b"rune", b"string"}
    | {b"uintptr", b"int", b"int8", b"int16", b"int32", b"int64", b"uint", b"uint8"}
    | {b"uint16", b"uint32", b"uint64"}
)
# the top-level declarations whose specs name package-level declarations, not locals
_DECLARATIONS = frozenset({"var_declaration", "const_declaration", "type_declaration"})


@functools.cache
def _query() -> Query:
    return Query(language_of(GRAMMARS["go"]), _READS_AND_BINDINGS)


def package_reads(tree: Tree, src: bytes, aliases: dict[str, str]) -> list[Node]:
    """The identifiers `tree` reads bare that no local binding or import names: references
    to package-level declarations (LanguageRules.package_reads)."""
    caps = QueryCursor(_query()).captures(tree.root_node)
    reads = caps.get("read")
    if not reads:
        return []
    children = tree.root_node.children
    tops = [child.start_byte for child in children]
    package_level = {i for i, child in enumerate(children) if child.type in _DECLARATIONS}
    bindings = [(n, False) for n in caps.get("local", ())]
    bindings += [(n, True) for n in caps.get("local.spec", ())]
    locals_of: dict[int, set[bytes]] = {}
    for node, spec in bindings:
        top = bisect_right(tops, node.start_byte) - 1
        if not (spec and top in package_level and _at_file_level(node)):
            locals_of.setdefault(top, set()).add(src[node.start_byte : node.end_byte])
    not_reads = _not_reads(caps)
    unbound = _PREDECLARED | {local.encode("utf-8") for local in aliases}
    out: list[Node] = []
    for node in reads:
        start = node.start_byte
        name = src[start : node.end_byte]
        if name in unbound or start in not_reads:
            continue
        if locals_of and name in locals_of.get(bisect_right(tops, start) - 1, ()):
            continue
        out.append(node)
    return out


def _at_file_level(name: Node) -> bool:
    """Whether a var, const or type spec's name is the top-level declaration's own, not a
    local of a closure in its value (`var once = sync.OnceValues(func() { var max Level })`)."""
    node = name.parent  # the spec
    for _ in range(3):  # its declaration, past a `var ( ... )` group's list
        if node is None or node.type == "source_file":
            break
        node = node.parent
    return node is not None and node.type == "source_file"


def _not_reads(caps: dict[str, list[Node]]) -> set[int]:
    """The starts of the identifiers that bind, declare or name a field, or are called."""
    kinds = ("local", "local.spec", "declared", "called")
    starts = {n.start_byte for kind in kinds for n in caps.get(kind, ())}
    map_keys = {n.start_byte for n in caps.get("map_key", ())}
    starts.update(n.start_byte for n in caps.get("key", ()) if n.start_byte not in map_keys)
    return starts
