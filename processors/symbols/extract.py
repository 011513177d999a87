"""Symbols and references of one file, from a tree-sitter parse and the language's query.

The query files (queries/<lang>.scm) say WHAT is a declaration, a reference or an import, by
capture names; this module turns the matches into records the same way for every language:

- `@def.<Kind>` the declaration node (Kind is one of schemas.symbols.SYMBOL_KINDS), with
  `@name` its name, optionally `@params` (overload disambiguation), `@parent` (an explicit
  owner, e.g. a Go method's receiver type) and `@body` (where the signature ends, when the
  node has no `body` field);
- `@scope` + `@scope.name`: a naming scope that is not itself a symbol (a Rust `impl`);
- `@package`: the file's package/namespace, prefixed to every fq name;
- `@import` (a module), or `@import.module` + `@import.name`, optionally `@import.alias`;
  with `@import.via` (Ruby's `require "x"` is a plain call) only when that names an import;
- `@decl` on a declaration without a body (a C prototype, a C++ in-class method
  declaration): dropped when the file also defines the same name with the same parameters;
- `@ref.call` / `@ref.type`: a referenced simple name. Its qualifier (the `pkg` in
  `pkg.Name`, resolved through the file's imports) is the identifier just before it in the
  same member/selector/scoped node, so reference patterns need no grouping and run as a
  separate, cheaper query (grammars.split_patterns); `@ref.qualifier` only documents it.

Nesting comes from byte ranges, so a declaration's fq name is the package, the names of the
declarations (and scopes) containing it, and its own name. A Function directly inside a
Type/Interface/Enum is a Method.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import xxhash
from tree_sitter import Node, QueryCursor

from processors.symbols.grammars import Grammar, parser_of, queries_of
from schemas.symbols import SYMBOL_KINDS, Reference, SymbolDef

MAX_SIGNATURE_CHARS = 240
MAX_NAME_CHARS = 200
MAX_REFERENCES = 5000  # per file; a generated file cannot flood the reverse index
IMPORT_CALLS = frozenset({"require", "require_relative", "load", "autoload", "import"})
QUALIFIER_TYPES = frozenset(
    {"identifier", "package_identifier", "namespace_identifier", "name", "constant"}
)
TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
_SPACE = re.compile(r"\s+")
_SIGNATURE_TAIL = re.compile(r"(?:\s|\{|:|=>)+$")


@dataclass(slots=True)
class _Def:
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
    children: list[_Def] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Extracted:
    symbols: list[SymbolDef]
    imports: list[str]
    references: list[Reference]


def _text(src: bytes, node: Node) -> str:
    return src[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _clean_name(text: str, sep: str) -> str:
    text = text.strip().strip("\"'`<>;")
    if sep != ".":
        text = text.replace(sep, ".").strip(".")
    if " " in text or "\n" in text or "\t" in text:
        text = _SPACE.sub("", text)
    return text[:MAX_NAME_CHARS]


def module_prefix(path: str, language: str) -> str:
    """Python's dotted module path from the file path (`pkg/mod.py` -> `pkg.mod`)."""
    if language != "python":
        return ""
    parts = path.rsplit(".", 1)[0].split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(p for p in parts if p)


def _signature(src: bytes, d: _Def) -> str:
    node = d.node
    end = d.body_start
    if end is None:
        body = node.child_by_field_name("body")
        end = body.start_byte if body is not None else node.end_byte
    text = src[node.start_byte : max(end, node.start_byte)].decode("utf-8", errors="replace")
    text = _SPACE.sub(" ", text).strip()
    text = _SIGNATURE_TAIL.sub("", text) or text
    if len(text) > MAX_SIGNATURE_CHARS:
        text = text[: MAX_SIGNATURE_CHARS - 1] + "…"
    return text


def _end_line(node: Node) -> int:
    """1-based last line; a node ending with its newline ends on the line before."""
    end = node.end_point
    if end.column == 0 and end.row > node.start_point.row:
        return int(end.row)
    return int(end.row) + 1


def _param_types(src: bytes, params: Node | None) -> str:
    if params is None:
        return ""
    types = []
    for child in params.named_children:
        if child.type in ("comment", "line_comment", "block_comment"):
            continue
        typ = child.child_by_field_name("type")
        if typ is None and child.child_by_field_name("value") is not None:
            typ = child.child_by_field_name("name")  # an untyped parameter with a default
        elif typ is None and child.named_child_count > 1:  # `name: Type`, no type field
            typ = child.named_children[-1]
        types.append(_SPACE.sub("", _text(src, typ if typ is not None else child)).lstrip(":"))
    return ",".join(types)


def extract(body: str, language: str, path: str, grammar: Grammar) -> Extracted:
    src = body.encode("utf-8")
    tree = parser_of(grammar).parse(src)
    definitions, references = queries_of(grammar)
    matches = QueryCursor(definitions).matches(tree.root_node)
    sep = grammar.package_sep

    defs: dict[tuple[int, int, str], _Def] = {}
    package = ""
    imports: list[str] = []
    aliases: dict[str, str] = {}
    refs: list[tuple[int, str, str | None]] = []  # (start byte, name, qualifier text)

    pattern_of: dict[tuple[int, int, str], int] = {}
    for pattern, caps in matches:
        names = caps.get("name")
        for cap, nodes in caps.items():
            if cap.startswith("def.") and names:
                kind = cap[4:]
                if kind not in SYMBOL_KINDS:
                    continue
                node = nodes[0]
                key = (node.start_byte, node.end_byte, "def")
                if key in defs and pattern_of[key] <= pattern:
                    continue  # the same node matched twice: the earlier pattern wins
                pattern_of[key] = pattern
                parent = caps.get("parent")
                body_cap = caps.get("body")
                defs[key] = _Def(
                    node.start_byte,
                    node.end_byte,
                    kind,
                    _clean_name(_text(src, names[0]), sep),
                    node,
                    params=caps["params"][0] if "params" in caps else None,
                    parent=_clean_name(_text(src, parent[0]), sep) if parent else None,
                    body_start=body_cap[0].start_byte if body_cap else None,
                    decl_only="decl" in caps,
                )
        if "scope" in caps and "scope.name" in caps:
            node = caps["scope"][0]
            key = (node.start_byte, node.end_byte, "scope")
            if key not in defs:
                scope_name = _clean_name(_text(src, caps["scope.name"][0]), sep)
                defs[key] = _Def(
                    node.start_byte, node.end_byte, "", scope_name, node, is_scope=True
                )
        if "package" in caps and not package:
            package = _clean_name(_text(src, caps["package"][0]), sep)
        via = caps.get("import.via")
        if via and _text(src, via[0]) not in IMPORT_CALLS:
            pass
        elif "import" in caps:
            module = _clean_name(_text(src, caps["import"][0]), sep)
            if module:
                imports.append(module)
                alias = caps.get("import.alias")
                short = _clean_name(_text(src, alias[0]), sep) if alias else module.split(".")[-1]
                aliases[short] = module
        if "import.module" in caps:
            module = _clean_name(_text(src, caps["import.module"][0]), sep)
            imports.append(module)
            if "import.name" in caps:
                name = _clean_name(_text(src, caps["import.name"][0]), sep)
                alias = caps.get("import.alias")
                short = _clean_name(_text(src, alias[0]), sep) if alias else name
                aliases[short] = f"{module.lstrip('.')}.{name}" if module.strip(".") else name
    if references is not None:
        for cap, nodes in QueryCursor(references).captures(tree.root_node).items():
            if not cap.startswith("ref.") or cap == "ref.qualifier":
                continue
            for node in nodes:
                before = node.prev_named_sibling
                qualifier = (
                    _text(src, before)
                    if before is not None and before.type in QUALIFIER_TYPES
                    else None
                )
                refs.append((node.start_byte, _text(src, node), qualifier))

    prefix = package or module_prefix(path, language)
    ordered = sorted(defs.values(), key=lambda d: (d.start, -d.end, d.is_scope is False))
    stack: list[_Def] = []
    symbols: list[_Def] = []
    for d in ordered:
        while stack and stack[-1].end <= d.start:
            stack.pop()
        owner = stack[-1] if stack else None
        if (
            d.kind == "Function"
            and owner is not None
            and (owner.is_scope or owner.kind in TYPE_KINDS)
        ):
            d.kind = "Method"
        if d.parent:
            outer = owner.fq if owner is not None else prefix
            base = f"{outer}.{d.parent}" if outer else d.parent
        elif owner is not None:
            base = owner.fq
        else:
            base = prefix
        d.fq = f"{base}.{d.name}" if base else d.name
        if d.parent and d.kind == "Function":
            d.kind = "Method"
        stack.append(d)
        if not d.is_scope:
            symbols.append(d)

    if any(d.decl_only for d in symbols):
        defined = {(d.fq, _param_types(src, d.params)) for d in symbols if not d.decl_only}
        symbols = [
            d
            for d in symbols
            if not (d.decl_only and (d.fq, _param_types(src, d.params)) in defined)
        ]
    _disambiguate(src, symbols)
    out = [
        SymbolDef(
            fq_name=d.fq,
            name=d.name,
            kind=d.kind,
            signature=_signature(src, d),
            start_line=d.node.start_point.row + 1,
            end_line=_end_line(d.node),
            digest=xxhash.xxh3_64_hexdigest(src[d.start : d.end]),
        )
        for d in symbols
    ]
    out.sort(key=lambda s: (s.start_line, s.fq_name))
    return Extracted(out, sorted(set(imports)), _references(refs, symbols, aliases))


def _disambiguate(src: bytes, symbols: list[_Def]) -> None:
    """Same fq name twice in one file (overloads): append the parameter types, then `#n`."""
    by_fq: dict[str, list[_Def]] = {}
    for d in symbols:
        by_fq.setdefault(d.fq, []).append(d)
    for fq, same in by_fq.items():
        if len(same) < 2:
            continue
        for d in same:
            d.fq = f"{fq}({_param_types(src, d.params)})"
        seen: dict[str, int] = {}
        for d in same:
            n = seen.get(d.fq, 0) + 1
            seen[d.fq] = n
            if n > 1:
                d.fq = f"{d.fq}#{n}"
    # a nested symbol's fq was built from its owner's old name; rebuild descendants' prefixes
    # is unnecessary for overloads (methods rarely nest declarations that matter) - kept simple.


def _references(
    refs: list[tuple[int, str, str | None]], symbols: list[_Def], aliases: dict[str, str]
) -> list[Reference]:
    """Attribute each reference to its innermost enclosing declaration; qualify by imports."""
    refs.sort(key=lambda r: r[0])
    ordered = sorted(symbols, key=lambda d: (d.start, -d.end))
    out: dict[tuple[str, str, str | None], None] = {}
    stack: list[_Def] = []
    i = 0
    for start, raw_name, qualifier in refs:
        while i < len(ordered) and ordered[i].start <= start:
            while stack and stack[-1].end <= ordered[i].start:
                stack.pop()
            stack.append(ordered[i])
            i += 1
        while stack and stack[-1].end <= start:
            stack.pop()
        name = raw_name.strip()
        if not name or len(name) > MAX_NAME_CHARS:
            continue
        owner = stack[-1].fq if stack else ""
        qualified: str | None = None
        if qualifier is not None:
            module = aliases.get(qualifier.strip())
            if module is not None:
                qualified = f"{module}.{name}"
        elif name in aliases:
            qualified = aliases[name]
            name = qualified.rsplit(".", 1)[-1]  # `Item as It`: the declaration is named Item
        out[(owner, name, qualified)] = None
        if len(out) >= MAX_REFERENCES:
            break
    # an import-qualified reference makes the unqualified duplicate of the same call redundant
    qualified_pairs = {(s, n) for s, n, q in out if q is not None}
    return [
        Reference(symbol=s, name=n, qualified=q)
        for s, n, q in out
        if q is not None or (s, n) not in qualified_pairs
    ]
