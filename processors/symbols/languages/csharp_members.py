"""C#: a name before a dot is a class's (`Tokenizer.Tokenize(...)`, csharp.scm's
`@ref.element`) unless it is a member of the type the code stands in. C# names properties,
fields and events in PascalCase as it names types, and looks a simple name up among the
members of the enclosing types before the types of the namespaces: in a class with a
property `Value`, `Value.Length` reads the property. A member read through something
(`this.Value.Foo`, `token.Value.Length`) was never captured: the pattern takes only a bare
name written first.

So a captured name before a dot that a type around it declares as a property, a field, an
event or a primary constructor's parameter (a record's are its properties) is no reference.
The dependents resolver already took a name the file declares as a symbol for its own; a
record's positional property is declared by no symbol, so `record Pair(string Key, string
Value)` reading `Value.Length` depended on any class `Value` of the repository. A member
such a type inherits from a base class in another file, or declares in another part of a
partial class, is not seen here (nor a local or parameter written in PascalCase, against
the convention): those stay references, as before. A member whose type has its own name
(`public Color Color`, then `Color.Red`) refers to the type either way, and its declaration
references the type already.
"""

from __future__ import annotations

from tree_sitter import Node

# the declarations whose members a simple name inside them may name
_TYPES = frozenset(
    {
        "class_declaration",
        "struct_declaration",
        "record_declaration",
        "record_struct_declaration",
        "interface_declaration",
    }
)
_NAMED_MEMBERS = frozenset({"property_declaration", "event_declaration"})
_DECLARED_MEMBERS = frozenset({"field_declaration", "event_field_declaration"})
_DOT = ord(".")
_SPACES = frozenset(b" \t\r\n")


def without_own_members(ref_nodes: list[Node], src: bytes) -> list[Node]:
    """The reference captures less the names before a dot that name a member of a type
    around them (LanguageRules.without_own_members)."""
    members: dict[tuple[int, int], frozenset[bytes]] = {}  # each type's, once per file
    kept: list[Node] = []
    for node in ref_nodes:
        if not _before_dot(node, src) or not _own_member(node, src, members):
            kept.append(node)
    return kept


def _before_dot(node: Node, src: bytes) -> bool:
    """Whether a dot follows the name (past spaces: a chain written one call a line)."""
    at, end = node.end_byte, len(src)
    while at < end and src[at] in _SPACES:
        at += 1
    return at < end and src[at] == _DOT


def _own_member(node: Node, src: bytes, members: dict[tuple[int, int], frozenset[bytes]]) -> bool:
    """Whether `node` is the expression a member access starts with (`Value` of
    `Value.Length`) and a type around it declares a member of that name."""
    parent = node.parent
    if parent is None or parent.type != "member_access_expression":
        return False
    expression = parent.child_by_field_name("expression")
    if expression is None or expression.start_byte != node.start_byte:
        return False  # the member's name (`x.Value`), not what it is read from
    name = src[node.start_byte : node.end_byte]
    scope = parent.parent
    while scope is not None:
        if scope.type in _TYPES:
            span = (scope.start_byte, scope.end_byte)
            declared = members.get(span)
            if declared is None:
                declared = members[span] = _member_names(scope, src)
            if name in declared:
                return True
        scope = scope.parent
    return False


def _member_names(declaration: Node, src: bytes) -> frozenset[bytes]:
    """The names of a type's properties, fields, events and primary constructor's
    parameters: what a simple name in its body may read instead of a type."""
    names: list[Node] = []
    for child in declaration.named_children:
        if child.type == "parameter_list":  # `record R(Token Value)`, `class C(int Count)`
            names += _field_names(child, "parameter")
    body = declaration.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        if member.type in _NAMED_MEMBERS:
            name = member.child_by_field_name("name")
            names += [name] if name is not None else []
        elif member.type in _DECLARED_MEMBERS:
            for variables in member.named_children:
                if variables.type == "variable_declaration":
                    names += _field_names(variables, "variable_declarator")
    return frozenset(src[n.start_byte : n.end_byte] for n in names)


def _field_names(parent: Node, kind: str) -> list[Node]:
    """The `name` of each child of `parent` of type `kind`."""
    out = []
    for child in parent.named_children:
        name = child.child_by_field_name("name") if child.type == kind else None
        if name is not None:
            out.append(name)
    return out
