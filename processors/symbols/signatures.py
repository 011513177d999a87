"""Signatures of declarations: the head of a declaration up to its body, with its
decorators/annotations and parameter types, bounded; and the source repair that lets
tree-sitter parse interfaces listing several generic call signatures.

Split from extract.py, which calls these per declaration it finds.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING

from tree_sitter import Node

from processors.symbols.grammars import Grammar

if TYPE_CHECKING:
    from processors.symbols.declaration import Declaration

MAX_SIGNATURE_CHARS = 240
_PUNCT_SPACE = re.compile(r"\s*([^\w\s])\s*")
_TAIL_CHARS = " {:"  # with `=>`, what ends a declaration's head before its body
MAX_DECORATION_CHARS = 60  # one decorator/annotation in a signature
MAX_DECORATIONS_CHARS = 120  # all of them


def _node_text(text: Callable[[int, int], str], node: Node) -> str:
    return text(node.start_byte, node.end_byte)


def _outer_decorations(node: Node, types: frozenset[str]) -> list[Node]:
    """Decorators written before a declaration node: Python's `decorated_definition` wraps
    them, TypeScript methods and Rust items have them as preceding siblings."""
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        return [c for c in parent.named_children if c.type in types]
    out: list[Node] = []
    prev = node.prev_named_sibling
    while prev is not None and prev.type in types:
        out.append(prev)
        prev = prev.prev_named_sibling
    out.reverse()
    return out


def _inner_decorations(node: Node, types: frozenset[str], end: int) -> list[Node]:
    """Annotations/attributes inside a declaration before `end` (Java/Kotlin `modifiers`,
    C#/PHP attribute lists, a TypeScript class's decorators)."""
    out: list[Node] = []
    for child in node.children:
        if child.start_byte >= end:
            break
        if child.type in types:
            out.append(child)
        elif child.type == "modifiers":
            out.extend(c for c in child.children if c.type in types)
    return out


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _bounded_decorations(text_of: Callable[[int, int], str], nodes: list[Node]) -> str:
    parts: list[str] = []
    used = 0
    for n in nodes:
        one = _collapse(text_of(n.start_byte, n.end_byte))
        if len(one) > MAX_DECORATION_CHARS:
            one = one[: MAX_DECORATION_CHARS - 1] + "…"
        if used + len(one) > MAX_DECORATIONS_CHARS:
            parts.append("…")
            break
        parts.append(one)
        used += len(one) + 1
    return " ".join(parts)


# A TS/JS declaration whose value is an object or array literal written over several lines
# has no body for the query to capture; its signature shows the literal's brackets, not its
# contents (koa's `const proto = module.exports = {` ran into the methods it lists). The value
# is followed through these nodes, by these fields (None: the first named child).
_VALUE_OF: dict[str, str | None] = {
    "export_statement": "declaration",
    "variable_declarator": "value",
    "assignment_expression": "right",
    "field_definition": "value",
    "public_field_definition": "value",
    "expression_statement": None,
    "parenthesized_expression": None,
    "as_expression": None,
    "satisfies_expression": None,
}
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_LITERAL_BRACKETS = {"object": "{…}", "array": "[…]"}
_MAX_VALUE_DEPTH = 8


# a class field whose value is a function (`handle = (req) => {...}`) is signed up to the
# function's body, as a method is
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function"})


def _literal_value(text_of: Callable[[int, int], str], node: Node, name: str) -> Node | None:
    """The multi-line object or array literal `node` (declaring `name`) binds, or the body
    of the function it binds, or None."""
    current: Node | None = node
    for _ in range(_MAX_VALUE_DEPTH):
        if current is None:
            return None
        kind = current.type
        if kind in _LITERAL_BRACKETS:
            return current if current.start_point.row != current.end_point.row else None
        if kind in _FUNCTION_VALUES and current is not node:
            body = current.child_by_field_name("body")
            return body if body is not None and body.type == "statement_block" else None
        if kind in _DECLARATIONS:  # `var a = 1, b = {...}`: the declarator of `name`
            current = next(
                (
                    c
                    for c in current.named_children
                    if (n := c.child_by_field_name("name")) is not None
                    and _node_text(text_of, n) == name
                ),
                None,
            )
        elif kind in _VALUE_OF:
            field = _VALUE_OF[kind]
            current = (
                current.child_by_field_name(field)
                if field is not None
                else current.named_children[0]
                if current.named_child_count
                else None
            )
        else:
            return None
    return None


_JS_GRAMMARS = frozenset({"javascript", "typescript", "tsx"})


def _signature(
    text_of: Callable[[int, int], str], d: Declaration, grammar: Grammar, outer: list[Node]
) -> str:
    """The declaration up to its body, whitespace collapsed, with its decorators/annotations
    (`outer`: written before it; each at most MAX_DECORATION_CHARS, together
    MAX_DECORATIONS_CHARS) in front."""
    node = d.node
    end = d.body_start
    tail = ""  # what follows an elided literal value: `{…} as const`
    if end is None:
        body = node.child_by_field_name("body")
        end = body.start_byte if body is not None else d.end
        # comments before the body are its first lines, not the head's (tree-sitter hangs
        # `def f() -> None:  # why` and the comment lines after it on the definition)
        before = body.prev_sibling if body is not None else None
        while before is not None and before.type in _COMMENT_TYPES:
            end = before.start_byte
            before = before.prev_sibling
        literal = (
            _literal_value(text_of, node, d.name)
            if body is None and grammar.key in _JS_GRAMMARS
            else None
        )
        if literal is not None:
            end = literal.start_byte
            if literal.type in _LITERAL_BRACKETS:
                tail = _LITERAL_BRACKETS[literal.type] + text_of(literal.end_byte, d.end)
    end = max(end, d.start)
    text_of = _without_comments(text_of, node, d.start, end)
    text = text_of(d.start, end)
    types = grammar.decorations
    if types:
        decorations = list(outer)
        if grammar.decoration_mark in text:
            inner = _inner_decorations(node, types, end)
            if inner:
                decorations += inner
                pieces, pos = [], d.start
                for dec in inner:
                    pieces.append(text_of(pos, dec.start_byte))
                    pos = dec.end_byte
                pieces.append(text_of(pos, end))
                text = " ".join(pieces)
        if decorations:
            text = _bounded_decorations(text_of, decorations) + " " + text
    text = " ".join((text + tail).split())  # whitespace collapsed
    stripped = text.rstrip(_TAIL_CHARS)
    while stripped.endswith("=>"):
        stripped = stripped[:-2].rstrip(_TAIL_CHARS)
    text = stripped or text
    if len(text) > MAX_SIGNATURE_CHARS:
        text = text[: MAX_SIGNATURE_CHARS - 1] + "…"
    return text


MAX_HEAD_NODES = 4000  # nodes a head's comments are looked for in: a long type alias's


def _without_comments(
    text_of: Callable[[int, int], str], node: Node, start: int, end: int
) -> Callable[[int, int], str]:
    """`text_of` with the comments inside the head [start, end) left out: once the head is
    collapsed onto one line, a line comment (`src: string; // route pattern`, a parameter's
    `# why`) reads as if it commented out the rest of it."""
    comments: list[tuple[int, int]] = []
    stack, seen = [node], 0
    while stack and seen < MAX_HEAD_NODES:
        current = stack.pop()
        seen += 1
        if current.end_byte <= start or current.start_byte >= end:
            continue
        if current.type in _COMMENT_TYPES:
            comments.append((current.start_byte, current.end_byte))
        else:
            stack.extend(reversed(current.children))
    if not comments:
        return text_of
    comments.sort()

    def cut(a: int, b: int) -> str:
        pieces, pos = [], a
        for c_start, c_end in comments:
            if c_end <= pos or c_start >= b:
                continue
            pieces.append(text_of(pos, max(pos, c_start)))
            pos = max(pos, c_end)
        pieces.append(text_of(pos, b) if pos < b else "")
        return " ".join(pieces)

    return cut


def _declarator_type(src: bytes, param: Node) -> str | None:
    """A C/C++ parameter's type as written, its name taken out: `const char* s` ->
    `const char*`, `char* const* v` -> `char* const*` (the `type` field alone says `char`)."""
    node: Node | None = param.child_by_field_name("declarator")
    if node is None:
        return None
    while node is not None and node.type != "identifier":
        node = node.child_by_field_name("declarator")
    if node is None:
        return None
    written = src[param.start_byte : node.start_byte] + src[node.end_byte : param.end_byte]
    # `const char *` -> `const char*`: words keep one space, punctuation none
    text = " ".join(written.decode("utf-8", errors="replace").split())
    return _PUNCT_SPACE.sub(r"\1", text)


_BETWEEN_WORDS_ONLY = re.compile(r"(?<!\w) | (?!\w)")  # a space not between two word characters
_COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})
_MODIFIER_TYPES = frozenset({"modifiers", "annotation", "marker_annotation"})  # Java's


def _param_types(text_of: Callable[[int, int], str], src: bytes, params: Node | None) -> str:
    """The parameters' types as written, without whitespace: `(a: Foo<T>, b = 1)` -> `Foo<T>,b`."""
    return ",".join(_param_type_list(text_of, src, params))


def _param_type_list(
    text_of: Callable[[int, int], str], src: bytes, params: Node | None
) -> list[str]:
    if params is None:
        return []
    types = []
    for child in params.named_children:
        kind = child.type
        if kind in _COMMENT_TYPES:
            continue
        if kind == "parameter_declaration":  # C/C++
            written = _declarator_type(src, child)
            if written is not None:
                types.append(written)
                continue
        typed_children = [c for c in child.named_children if c.type not in _MODIFIER_TYPES]
        if kind == "spread_parameter" and typed_children:  # Java `T... xs`, `final T... xs`
            types.append("".join(_node_text(text_of, typed_children[0]).split()) + "...")
            continue
        typ = child.child_by_field_name("type")
        if typ is None and child.child_by_field_name("value") is not None:
            typ = child.child_by_field_name("name")  # an untyped parameter with a default
        elif typ is None and child.named_child_count > 1:  # `name: Type`, no type field
            typ = child.named_children[-1]
        written = _node_text(text_of, typ if typ is not None else child)
        # whitespace only between words kept: `Fn extends unknown ?`, not `Fnextendsunknown?`
        typed = _BETWEEN_WORDS_ONLY.sub("", " ".join(written.split())).lstrip(":")
        # a union written one member a line (`| A\n | B`) leads with a bar its type lacks
        types.append(typed[1:] if typed.startswith("|") else typed)
    return types


def _slicer(body: str, src: bytes) -> Callable[[int, int], str]:
    """Text between two byte offsets. Most sources are ASCII, where byte offsets are str
    offsets: slice the str and skip decoding every name."""
    if len(src) == len(body):
        return lambda start, end: body[start:end]
    return lambda start, end: src[start:end].decode("utf-8", errors="replace")


# A line that opens a generic call or construct signature (`<I extends Input = {}>(h: H<I>): R`),
# in a TypeScript interface after another signature: tree-sitter-typescript 0.23 inserts no
# automatic semicolon before it, so the whole interface becomes an ERROR and the rest of the
# file parses as junk (`if (x) {` as a method named `if`, the exports after it lost). The `>(`
# form (`<T>(x: T): T`) only in `.ts`: in TSX a line `<b>(` is JSX.
_GENERIC_SIGNATURE = {
    "typescript": re.compile(rb"\n([ \t]+)<[A-Za-z_$][\w$]*\s*(?:extends\b|=|,|>\s*\()"),
    "tsx": re.compile(rb"\n([ \t]+)<[A-Za-z_$][\w$]*\s*(?:extends\b|=|,)"),
}
_ENDS_A_MEMBER = frozenset(b"])>?" + string.ascii_letters.encode() + string.digits.encode() + b"_$")


def _separated_signatures(src: bytes, grammar_key: str) -> bytes:
    """`src` with a `;` written over the first indentation byte of each generic signature line
    that follows a member (the separator TypeScript would infer): the same length, so every
    offset and line of the tree stays that of the file."""
    pattern = _GENERIC_SIGNATURE.get(grammar_key)
    if pattern is None or (b"\n " not in src and b"\n\t" not in src):
        return src
    fixed: bytearray | None = None
    for found in pattern.finditer(src):
        line_end = found.start()
        while line_end > 0:  # the previous line with code on it, comments skipped
            line_start = src.rfind(b"\n", 0, line_end) + 1
            line = src[line_start:line_end].strip()
            if line and not line.startswith((b"//", b"*", b"/*")):
                break
            line_end = line_start - 1
        else:
            continue
        if line[-1] in _ENDS_A_MEMBER:
            fixed = fixed if fixed is not None else bytearray(src)
            fixed[found.start(1)] = ord(";")
    return bytes(fixed) if fixed is not None else src


def _recovered(node: Node) -> bool:
    """Whether the parse went wrong in or around a declaration node."""
    if node.has_error:
        return True
    parent = node.parent
    while parent is not None:
        if parent.type == "ERROR":
            return True
        parent = parent.parent
    return False
