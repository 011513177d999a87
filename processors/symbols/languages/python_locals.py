"""Python: a name a function binds is its local everywhere in it, so it shadows a module's
import of the same name there. requests/__init__.py imports `patch` from `.api`, and its
check_compatibility unpacks `major, minor, patch = version.split(".")`: the function's
`int(patch)` reads its local, yet the import qualified it, and the function was taken to
use api.patch.

A function binds a name by an assignment's target (unpacked or not, `+=` too), a `for`'s,
`with ... as`, `except ... as`, `:=`, a parameter, or a nested `def`/`class`; unless it
declares the name `global` or `nonlocal`. The binding covers the function's body, the
functions nested in it included (a closure reads the same local). A comprehension's
variable binds in the comprehension only. A class body's or the module's bindings
shadow nothing here (a class body's name is not its methods', and reads before the
assignment are the module's; a module-level `x = None` in `except ImportError:` stands
for the import).

Each binding is an identifier written where a binding stands: the imported names a
reference starts with are looked for in the text, and each occurrence's place in the tree
is checked, as js_ts_locals does.
"""

from __future__ import annotations

import functools
import re

from tree_sitter import Node, Tree

from processors.symbols.declaration import Found, ScopedAlias

# what holds several targets of one binding: `a, b = ...`, `for (a, *b) in`, `as (a, b)`
_TARGET_GROUPS = frozenset(
    {
        "pattern_list",
        "tuple_pattern",
        "list_pattern",
        "list_splat_pattern",
        "dictionary_splat_pattern",
        "tuple",
        "list",
        "parenthesized_expression",
    }
)
# the statements and parameters that bind the target in their field
_TARGET_FIELDS = {
    "assignment": "left",
    "augmented_assignment": "left",
    "for_statement": "left",
    "for_in_clause": "left",
    "named_expression": "name",
    "default_parameter": "name",
    "typed_default_parameter": "name",
    "function_definition": "name",
    "class_definition": "name",
}
_PARAMETER_LISTS = frozenset({"parameters", "lambda_parameters", "typed_parameter"})
_PARAMETERS = _PARAMETER_LISTS | {"default_parameter", "typed_default_parameter"}
_FUNCTIONS = frozenset({"function_definition", "lambda"})
_COMPREHENSIONS = frozenset(
    {"list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"}
)
_DECLARED_ELSEWHERE = frozenset({"global_statement", "nonlocal_statement"})


def local_shadows(tree: Tree, found: Found, src: bytes, used: set[str]) -> list[ScopedAlias]:
    """The spans where a function's (or a comprehension's) own binding shadows a name the
    file's imports bind and a reference starts with (`used`), one per scope and name:
    LanguageRules.local_shadows."""
    names = (found.aliases.keys() | {a.local for a in found.scoped if not a.shadows}) & used
    shadows: dict[tuple[int, int, str], None] = {}
    root = tree.root_node
    for name in sorted(names):
        for match in _candidates(name).finditer(src):
            start, end = match.span()
            node = root.descendant_for_byte_range(start, end)
            if node is None or node.type != "identifier" or node.end_byte != end:
                continue
            span = binding_span(node, name)
            if span is not None:
                shadows[(*span, name)] = None
    return [ScopedAlias(start, end, name, "", False, False, True) for start, end, name in shadows]


@functools.lru_cache(maxsize=4096)  # a repository's files import the same few names
def _candidates(name: str) -> re.Pattern[bytes]:
    """The whole-word occurrences of `name` that may bind it: no member (`x.name`), nothing
    read through it (`name.x`, `name(`, `name[`) unless a `def` or a `class` names it. The
    name first, so the search runs at the speed of a literal's."""
    word = re.escape(name.encode("utf-8"))
    return re.compile(
        word
        + rb"(?<![\w.]%s)(?!\w)(?:(?![ \t]*[.(\[])|(?<=def %s)|(?<=class %s))" % (word, word, word)
    )


def binding_span(name: Node, local: str) -> tuple[int, int] | None:
    """The span `name` (an identifier) binds in when it is a function's or a comprehension's
    own binding: that function's body, that comprehension; None for a use, a module's or a
    class body's binding and a name the scope declares `global` or `nonlocal`."""
    binder = _binder(name)
    if binder is None:
        return None
    scope = _scope_of(binder)
    if scope is None:
        return None
    if scope.type in _COMPREHENSIONS:
        return scope.start_byte, scope.end_byte
    body = scope.child_by_field_name("body")
    if body is None or _declared_elsewhere(body, local):
        return None
    return body.start_byte, body.end_byte


def _binder(name: Node) -> Node | None:
    """The node whose binding `name` is the target of (an assignment, a loop, a parameter
    list, a definition, an `as` target), climbing out of the groups that unpack; None when
    `name` binds nothing."""
    node, parent = name, name.parent
    while parent is not None and parent.type in _TARGET_GROUPS:
        node, parent = parent, parent.parent
    if parent is None:
        return None
    if parent.type in _PARAMETER_LISTS or parent.type == "as_pattern_target":
        return parent
    field = _TARGET_FIELDS.get(parent.type)
    if field is None:
        return None
    held = parent.child_by_field_name(field)
    if held is None or (held.start_byte, held.end_byte) != (node.start_byte, node.end_byte):
        return None
    return parent


def _scope_of(binder: Node) -> Node | None:
    """The function, lambda or comprehension whose local `binder` binds; None for a
    module's or a class body's name. A parameter is its function's; a comprehension binds
    only its own `for` targets (a `:=` in it binds the function's)."""
    at = binder.start_byte
    parent = binder.parent
    while parent is not None:
        kind = parent.type
        if kind in _FUNCTIONS:
            body = parent.child_by_field_name("body")
            if binder.type in _PARAMETERS or (
                body is not None and body.start_byte <= at < body.end_byte
            ):
                return parent
        elif kind == "class_definition":
            body = parent.child_by_field_name("body")
            if body is not None and body.start_byte <= at < body.end_byte:
                return None
        elif kind in _COMPREHENSIONS and binder.type == "for_in_clause":
            return parent
        parent = parent.parent
    return None


def _declared_elsewhere(body: Node, local: str) -> bool:
    """Whether the scope whose body is `body` declares `global local` or `nonlocal local`
    in its own statements (not in a function or class nested in it)."""
    text = body.text
    if text is None or (b"global" not in text and b"nonlocal" not in text):
        return False
    wanted = local.encode("utf-8")
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type in _DECLARED_ELSEWHERE:
            if any(n.text == wanted for n in node.named_children):
                return True
        elif node.type not in ("function_definition", "class_definition", "lambda"):
            stack.extend(node.named_children)
    return False
