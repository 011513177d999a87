"""Python: where a name an import binds inside a function or a class is visible, as the
language scopes it (python.binding_scope asks). Two rules the body's span alone gets wrong:

- a class body is a scope its methods do not see: `import x` in a class body binds
  `x` for the class's own statements (an attribute, a decorator, a default value), but a
  method's `x` is the module's (or an enclosing function's), so the class's binding covers
  its body less the bodies of the functions, lambdas and classes defined in it;
- `global x` in a function (or a class body) makes its `import x` bind the module's `x`:
  from there on the whole file's references may use it, as after a top-level import.

A comprehension in a class body cannot see the class's names either (but its first iterable
can); that is left to the class's binding, as before.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

# what defines a scope of its own inside a class body: the body of each is no class name's
_NESTED = frozenset({"function_definition", "class_definition", "lambda"})


def class_body_spans(body: Node) -> list[tuple[int, int]]:
    """The spans of a class's `body` where its own names are visible: the body less the
    bodies of the functions, lambdas and classes written in it (in source order, apart)."""
    spans: list[tuple[int, int]] = []
    start = body.start_byte
    for hole_start, hole_end in _nested_bodies(body):
        if hole_start > start:
            spans.append((start, hole_start))
        start = max(start, hole_end)
    if body.end_byte > start:
        spans.append((start, body.end_byte))
    return spans


def _nested_bodies(body: Node) -> Iterator[tuple[int, int]]:
    """The spans of the bodies of the scopes defined in `body` (not those inside them), in
    source order: a method's, a nested class's, a lambda's."""
    stack = list(reversed(body.named_children))
    while stack:
        node = stack.pop()
        if node.type in _NESTED:
            inner = node.child_by_field_name("body")
            if inner is not None:
                yield inner.start_byte, inner.end_byte
            continue
        stack.extend(reversed(node.named_children))


def declares_global(body: Node, local: str) -> bool:
    """Whether the scope whose body is `body` declares `global local` (in its own
    statements, not those of a function or class nested in it)."""
    text = body.text
    if text is None or b"global" not in text:  # the common case: no global statement
        return False
    name = local.encode("utf-8")
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type == "global_statement":
            if any(n.text == name for n in node.named_children):
                return True
        elif node.type not in _NESTED:
            stack.extend(node.named_children)
    return False
