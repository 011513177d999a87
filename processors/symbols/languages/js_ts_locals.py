"""TypeScript and JavaScript: a function's or a block's own binding of a name the file
imports shadows the import there. `const path = require("path")` at the top of a file and
`function f() { const path = { join() {} }; path.join() }`: inside `f`, `path.join()` is the
local object's and names nothing of the module, yet the module-level alias qualified it
(`path.join`), so the file was taken to use the module's `join` from `f`. The same for a
test callback's parameter `t` under `const t = require("node:test")` (fastify's tests) or
`function rerenderApp(render)` under `import { render } from "@testing-library/react"`.

Each such binding is a span where the name is unbound (declaration.ScopedAlias with
`shadows`, which references._Scopes applies like a scoped import, the innermost last), as
JavaScript scopes it: a `const`, `let`, class or function declaration its block (a `for`'s
head its loop, a `switch`'s its body), a parameter or a `var` its function, a catch
parameter its clause; at module level it shadows nothing. A `require` bound in a function is
an import, no shadow (js_ts_imports.binding_scope).

A `const`, a parameter or a function binds a value: in TypeScript a type named through the
import (`const checks: checks.$ZodCheck[]` under `import * as checks`, zod) is still the
import's (_types_kept).

The bindings are found from the text, not by walking the tree (walking up from every
reference cost a third of the extraction): each whole-word occurrence of an imported name
that a reference starts with, not a member (`x.path`) nor used as an object or a function
(`path.join`, `path(`), written after what may introduce a binding (`const`, `(`, `,`, `{`,
...) or before `=>`; then the identifier the tree has there, kept when it stands where a
binding does. A binding written otherwise (`{ a: path }` in a pattern) is not looked for:
the import then qualifies the name there, as before. About 5% of the TS/JS extraction's
time (fastify, zod, trpc, express).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from tree_sitter import Node, Tree

from processors.symbols.declaration import Found, ScopedAlias

# what a parameter or a `var` binds in: a function (a class's static block is one too)
FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function",
        "generator_function_declaration",
        "class_static_block",
    }
)
# a pattern's part that binds what its field holds (`{ b: c }` binds `c`, `d = 1` binds `d`)
_PATTERN_FIELDS = {
    "pair_pattern": "value",
    "assignment_pattern": "left",
    "object_assignment_pattern": "left",
    "required_parameter": "pattern",
    "optional_parameter": "pattern",
}
_PATTERNS = frozenset({"object_pattern", "array_pattern", "rest_pattern"})
_NAMES = frozenset({"identifier", "shorthand_property_identifier_pattern"})
# the declarations whose name binds in the block they stand in
_DECLARED_IN_BLOCK = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "enum_declaration",
    }
)
_OWN_NAME = frozenset({"function_expression", "function", "generator_function"})
_DOT = ord(".")


def local_shadows(tree: Tree, found: Found, src: bytes, used: set[str]) -> list[ScopedAlias]:
    """The spans where a local binding shadows a name the file's imports bind (at module
    level or in a scope around) and a reference starts with (`used`), one per scope and
    name, and the TypeScript types named through an import inside such a span
    (_types_kept): LanguageRules.local_shadows."""
    names = (found.aliases.keys() | {a.local for a in found.scoped}) & used
    if not names:
        return []
    shadows: dict[tuple[int, int, str], None] = {}
    root = tree.root_node
    for name, start, end in _candidates(src, names):
        node = root.descendant_for_byte_range(start, end)
        if (
            node is None
            or node.type not in _NAMES
            or node.end_byte - node.start_byte != end - start
        ):
            continue
        span = binding_span(node)
        if span is not None:
            shadows[(*span, name)] = None
    if not shadows:
        return []
    return [
        ScopedAlias(start, end, name, "", False, False, True) for start, end, name in shadows
    ] + _types_kept(found.ref_nodes, shadows, found, src)


@functools.lru_cache(maxsize=4096)  # a repository's files import the same few names
def _occurrences(name: str) -> re.Pattern[bytes]:
    """The whole-word occurrences of `name` not used as an object or a function (`path.join`,
    `path(`, `path[0]`): the name first, so the search runs at the speed of a literal's."""
    word = name.encode("utf-8")
    return re.compile(
        re.escape(word) + rb"(?<![\w$][\s\S]{%d})(?![\w$])(?!\s*(?:\?\.|[.(\[`]))" % len(word)
    )


# `function` first, its word boundary after: a literal's search speed
_FUNCTION_NAME = re.compile(rb"function(?<![\w$]function)(?![\w$])\s*\*?\s*([A-Za-z_$][\w$]*)")
_OPENERS = frozenset(b"(,{[")
_KEYWORDS = frozenset({b"const", b"let", b"var", b"class"})
_SPACES = frozenset(b" \t\r\n")
_IDENT = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def _candidates(src: bytes, names: Iterable[str]) -> Iterator[tuple[str, int, int]]:
    """The occurrences (name, start, end) of `names` written where a binding may stand: after
    `const`, `let`, `var`, `class`, an opening bracket, a comma or `...` (a declaration, a
    parameter, a pattern's part), or before `=>`; and each function declaration's name. A
    binding written otherwise (`{ a: path }`) is not looked for: the import then qualifies the
    name there, as it did before."""
    for name in names:
        for found in _occurrences(name).finditer(src):
            start, end = found.span()
            if _after_binder(src, start) or _before_arrow(src, end):
                yield name, start, end
    declared = {n.decode("utf-8", "replace") for n in _FUNCTION_NAME.findall(src)}
    for name in declared.intersection(names):
        for found in _FUNCTION_NAME.finditer(src):
            if found.group(1) == name.encode("utf-8"):
                yield name, *found.span(1)


def _after_binder(src: bytes, start: int) -> bool:
    """Whether what stands before `start` (past spaces) may introduce a binding."""
    at = start - 1
    while at >= 0 and src[at] in _SPACES:
        at -= 1
    if at < 0:
        return False
    if src[at] in _OPENERS:
        return True
    if src[at] == _DOT:
        return src[at - 2 : at + 1] == b"..."
    end = at + 1
    while at >= 0 and src[at] in _IDENT:
        at -= 1
    return src[at + 1 : end] in _KEYWORDS


def _before_arrow(src: bytes, end: int) -> bool:
    """Whether `=>` follows `end` (past spaces): an arrow function's one parameter."""
    while end < len(src) and src[end] in _SPACES:
        end += 1
    return src.startswith(b"=>", end)


def binding_span(name: Node) -> tuple[int, int] | None:
    """The span a name binds in when it is the name a local binding declares (a `const`'s,
    a parameter's, a `var`'s, a catch parameter's, a function's, a class's): its block, its
    function, its loop or its clause; None for a module-level binding, a `require` (an
    import) and a name that binds nothing (a use, a default value, a key)."""
    node, parent = name, name.parent
    while parent is not None and (
        parent.type in _PATTERNS
        or (
            parent.type in _PATTERN_FIELDS and _is_field(parent, _PATTERN_FIELDS[parent.type], node)
        )
    ):
        node, parent = parent, parent.parent
    if parent is None:
        return None
    kind = parent.type
    if kind == "variable_declarator":
        return _declarator_span(parent, node)
    if kind == "formal_parameters" or (
        kind == "arrow_function" and _is_field(parent, "parameter", node)
    ):
        return _function_span(parent)
    if kind == "catch_clause" and _is_field(parent, "parameter", node):
        return parent.start_byte, parent.end_byte
    if kind == "for_in_statement" and _is_field(parent, "left", node):
        return _loop_span(parent)
    if kind in _DECLARED_IN_BLOCK and _is_field(parent, "name", node):
        return _block_span(parent.parent)
    if kind in _OWN_NAME and _is_field(parent, "name", node):
        return parent.start_byte, parent.end_byte
    return None


def _is_field(parent: Node, field: str, child: Node) -> bool:
    held = parent.child_by_field_name(field)
    return (
        held is not None and held.start_byte == child.start_byte and held.end_byte == child.end_byte
    )


def _declarator_span(declarator: Node, name: Node) -> tuple[int, int] | None:
    """A `const`/`let` declarator's block, a `var`'s function; not a `require`'s."""
    if not _is_field(declarator, "name", name) or _requires(declarator):
        return None
    declaration = declarator.parent
    if declaration is None:
        return None
    if declaration.type == "variable_declaration":  # `var`: the function's, hoisted
        return _function_around(declaration)
    return _block_span(declaration.parent)


def _block_span(scope: Node | None) -> tuple[int, int] | None:
    """The span of the block a declaration stands in (a `for`'s head: the loop; a `switch`
    case's: the switch's body); None at module level."""
    if scope is not None and scope.type in ("export_statement", "switch_case", "switch_default"):
        scope = scope.parent
    if scope is None or scope.type == "program":
        return None
    return scope.start_byte, scope.end_byte


def _function_around(node: Node) -> tuple[int, int] | None:
    scope = node.parent
    while scope is not None and scope.type not in FUNCTIONS:
        scope = scope.parent
    return (scope.start_byte, scope.end_byte) if scope is not None else None


def _function_span(parameters: Node) -> tuple[int, int] | None:
    """A parameter's function (`parameters`: its list, or an arrow function itself)."""
    function = parameters if parameters.type == "arrow_function" else parameters.parent
    return (function.start_byte, function.end_byte) if function is not None else None


def _loop_span(loop: Node) -> tuple[int, int] | None:
    """`for (const x of xs)` binds `x` in its loop, `for (var x in o)` in its function;
    `for (x of xs)` binds nothing (it assigns)."""
    kind = loop.child_by_field_name("kind")
    keyword = kind.type if kind is not None else ""
    if keyword in ("const", "let"):
        return loop.start_byte, loop.end_byte
    return _function_around(loop) if keyword == "var" else None


def _requires(declarator: Node) -> bool:
    """Whether a declarator binds `require("x")` (an import, javascript.scm's)."""
    value = declarator.child_by_field_name("value")
    if value is None or value.type != "call_expression":
        return False
    function = value.child_by_field_name("function")
    arguments = value.child_by_field_name("arguments")
    first = arguments.named_children[:1] if arguments is not None else []
    return (
        function is not None
        and function.text == b"require"
        and bool(first)
        and first[0].type == "string"
    )


def _types_kept(
    ref_nodes: list[Node],
    shadows: dict[tuple[int, int, str], None],
    found: Found,
    src: bytes,
) -> list[ScopedAlias]:
    """A TypeScript type named through an import where a local value of the same name
    shadows it (zod's `const checks: checks.$ZodCheck[] = ...` under `import * as checks`):
    a `const`, a parameter or a function binds a value, not a type or a namespace, so the
    type is still the import's. Each such type's own span binds the import again (the
    innermost binding wins: references._Scopes). Only a module-level import is bound again:
    TypeScript binds no `require` in a function (typescript.scm)."""
    shadowed = {name for _start, _end, name in shadows}
    kept: list[ScopedAlias] = []
    for node in ref_nodes:
        if node.type != "type_identifier":
            continue
        name = _qualifier_head(node, src)
        qualified = found.aliases.get(name) if name in shadowed else None
        at = node.start_byte
        if qualified is None or not any(
            shadow == name and start <= at < end for start, end, shadow in shadows
        ):
            continue
        namespace = name in found.namespaces
        bound = not namespace and name in found.bound
        kept.append(ScopedAlias(at, node.end_byte, name, qualified, namespace, bound))
    return kept


def _qualifier_head(node: Node, src: bytes) -> str:
    """The first name of a type's qualifier (`checks` of `checks.$ZodCheck`, `a` of
    `a.b.C`), or its own name when it has none."""
    start = node.start_byte
    if not start or src[start - 1] != _DOT:
        return src[start : node.end_byte].decode("utf-8", "replace")
    head = start - 1
    while head and (src[head - 1] in _IDENT or src[head - 1] == _DOT):
        head -= 1
    return src[head : start - 1].split(b".", 1)[0].decode("utf-8", "replace")
