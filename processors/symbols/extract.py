"""Symbols and references of one file, from a tree-sitter parse and the language's query.

The query files (queries/<lang>.scm) say WHAT is a declaration, a reference or an import, by
capture names; this module turns the matches into records the same way for every language:

- `@def.<Kind>` the declaration node (Kind is one of schemas.symbols.SYMBOL_KINDS), with
  `@name` its name, optionally `@params` (overload disambiguation), `@parent` (an explicit
  owner, e.g. a Go method's receiver type) and `@body` (where the signature ends, when the
  node has no `body` field);
- `@scope` + `@scope.name`: a naming scope that is not itself a symbol (a Rust `impl`);
- `@package`: the file's package/namespace, prefixed to every fq name;
- `@import` (a module), or `@import.module` + `@import.name`, optionally `@import.alias`,
  or `@import.module` + `@import.star` (`from x import *`: the import `x.*`);
  TS/JS: `@import` with `@import.names` (`{ A, B as C }`, read by _named_imports) or
  `@import.alias` (`* as ns`) and a default import's name (`@import.default`), one match per
  statement (_js_import);
  with `@import.via` (Ruby's `require "x"` is a plain call) only when that names an import;
- `@decl` on a declaration without a body (a C prototype, a C++ in-class method
  declaration): dropped when the file also defines the same name with the same parameters;
- `@decorated`: a declaration with decorators/attributes written before it (Python's
  `decorated_definition`, TypeScript members, Rust items); their text (bounded) leads its
  signature, as do annotations inside the node (Java, Kotlin, C#, PHP);
- `@ref.element`: a JSX element's name, a reference unless written in lower case (HTML);
- `@ref.call` / `@ref.type`: a referenced simple name. Its qualifier (the `pkg` in
  `pkg.Name`, resolved through the file's imports) is the identifier just before it in the
  same member/selector/scoped node, so a reference pattern has exactly one capture
  (`@ref.qualifier` only documents it) and costs no grouping (grammars.QueryPlan).

Python relative imports (`from ..pkg import X`) resolve against the file's package, so they
name repository modules like absolute ones do.

Performance (the stage must cost at most 2x a bare parse): one walk over the tree for all
patterns but the root-anchored ones, which run in a pass limited to the root
(grammars.QueryPlan); node texts are str slices (ASCII files) not decodes; references are
deduplicated and attributed to their owners by bisecting a segment table, not one by one;
records are validated once per file from plain dicts and tuples (processor.py); digests
hash memoryview slices.

Nesting comes from byte ranges, so a declaration's fq name is the package, the names of the
declarations (and scopes) containing it, and its own name. A Function directly inside a
Type/Interface/Enum is a Method.
"""

from __future__ import annotations

import functools
import posixpath
import re
import string
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter, le
from typing import Any

import xxhash
from tree_sitter import Node, QueryCursor

from processors.symbols.grammars import Grammar, parser_of, plan_of
from processors.symbols.keywords import BLANK, KEYWORDS
from processors.symbols.signatures import (
    _node_text,
    _outer_decorations,
    _param_types,
    _recovered,
    _separated_signatures,
    _signature,
    _slicer,
)
from schemas.symbols import Reference

MAX_NAME_CHARS = 200
MAX_REFERENCES = 5000  # per file; a generated file cannot flood the reverse index
IMPORT_CALLS = frozenset({"require", "require_relative", "load", "autoload", "import"})
QUALIFIER_TYPES = frozenset(
    {"identifier", "package_identifier", "namespace_identifier", "name", "constant"}
)
TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
JS_LANGUAGES = frozenset({"typescript", "javascript"})
# languages whose plain `@import` names one declaration (`import com.shop.Invoice`), not a
# module, a package or a namespace as in Python, Go and C#
NAME_IMPORT_LANGUAGES = frozenset({"java", "kotlin", "php", "rust"})
JS_EXTENSIONS = frozenset({".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"})
# the last byte of `pkg.`, `pkg::`, `pkg->`, `Pkg\\`: a reference after anything else has no
# qualifier, so it needs no look at its siblings
_QUALIFIER_ENDS = frozenset(b".:>\\")
_IDENT_CHARS = frozenset(string.ascii_letters + string.digits + "_$")
_SPACES = frozenset(" \t\r\n\f\v")
_START_BYTE = attrgetter("start_byte")
_END_BYTE = attrgetter("end_byte")
_SPACE = re.compile(r"\s+")
_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")


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


@dataclass(slots=True)
class Extracted:
    """The fields of schemas.symbols.SymbolDef as plain dicts, and the references as the
    record's tuples: the records validate them in one call per file."""

    symbols: list[dict[str, Any]]
    imports: list[str]
    references: list[Reference]
    references_dropped: int = 0  # distinct references past MAX_REFERENCES, left out


def _clean_name(text: str, sep: str) -> str:
    if text.isidentifier():  # the common case: nothing to clean
        return text[:MAX_NAME_CHARS]
    # C++ `Box<T>::other` is `Box.other` (not an include's `<stdio.h>`, not `operator<`)
    if "<" in text and text[0] != "<" and "operator" not in text:
        while "<" in text and (cut := _TEMPLATE_ARGS.sub("", text)) != text:
            text = cut
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


def _resolve_relative(module: str, path: str, language: str) -> str:
    """A Python relative import as the repository module it names: in `pkg/sub/mod.py`,
    `.` is `pkg.sub`, `..x` is `pkg.x` (in `pkg/sub/__init__.py`, `.` is `pkg.sub` too).
    Beyond the repository root it stays relative (it names nothing we index)."""
    if language != "python" or not module.startswith("."):
        return module
    dots = len(module) - len(module.lstrip("."))
    parts = path.rsplit(".", 1)[0].split("/")[:-1]  # the file's package
    if dots - 1 > len(parts):
        return module
    base = parts[: len(parts) - (dots - 1)]
    rest = module[dots:]
    return ".".join([p for p in base if p] + ([rest] if rest else [])) or module


def _is_relative_js(module: str) -> bool:
    return module.startswith(("./", "../")) or module in (".", "..")


def _resolve_js_in(module: str, directory: str) -> str:
    """A TypeScript/JavaScript relative specifier as the repository path it names, without its
    extension: in `src/app/main.ts`, `../orders.js` is `src/orders`. Beyond the repository
    root it stays relative (it names nothing we index)."""
    rest, base = module, directory
    while rest.startswith(("./", "../")):  # the common shapes, without normpath's general walk
        if rest[1] == "/":
            rest = rest[2:]
        elif base:
            base, rest = base.rpartition("/")[0], rest[3:]
        else:
            return module  # beyond the repository root
    if not rest or rest[0] in "./" or "/." in rest or "//" in rest or rest[-1] == "/":
        resolved = posixpath.normpath(posixpath.join(directory, module))  # `./a/../b`, `./`
        if resolved == ".." or resolved.startswith("../"):
            return module
    else:
        resolved = f"{base}/{rest}" if base else rest
    return strip_js_extension(resolved)


def strip_js_extension(path: str) -> str:
    """`src/orders.ts` -> `src/orders`: a TS/JS extension as posixpath.splitext finds one
    (after the name's leading dots), at a third of its cost; any other path as it is."""
    slash, dot = path.rfind("/"), path.rfind(".")
    if dot > slash + 1 and path[dot:].lower() in JS_EXTENSIONS and path[slash + 1 : dot].strip("."):
        return path[:dot]
    return path


_NAMED_IMPORT = re.compile(
    r"(?:\btype\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*)|\s*:\s*([A-Za-z_$][\w$]*))?"
)
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _named_imports(text: str) -> list[tuple[str, str]]:
    """(name, local name) of each specifier of `{ A, type B, C as D }` (TS/JS imports) or of
    `{ A, C: D }` (a CommonJS `require` destructured); a default (`{ A = 1 }`), a rest or a
    nested pattern binds nothing we qualify."""
    if "/" in text:
        text = _COMMENTS.sub(" ", text)
    parts = [part.strip() for part in text.strip("{} \n\t\r").split(",")]
    if "as" not in text and "type" not in text and ":" not in text:  # the common case: bare names
        return [(part, part) for part in parts if part.replace("$", "_").isidentifier()]
    out = []
    for part in parts:
        found = _NAMED_IMPORT.fullmatch(part)
        if found:
            name, renamed, bound = found.groups()
            out.append((name, renamed or bound or name))
    return out


@functools.lru_cache(maxsize=8192)  # a directory's files import the same few modules
def _js_import(
    specifier: str, names: str, alias: str, directory: str, default: str = ""
) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """A TS/JS import statement (or `require`) in `directory`: its module, a relative specifier
    resolved to a repository path, and the (local name, qualified name) pairs it binds, named
    imports and a namespace. A non-relative specifier, a package's (`rxjs`) or a path alias
    (`@/orders`, tsconfig `paths`), qualifies as written: the dependents resolver maps an
    alias to its file and matches a package's names by name. A relative one that leaves the
    repository qualifies nothing. The third value is the local name bound to the whole module
    (`* as ns`, `const m = require("m")`), "" when none."""
    raw = _clean_name(specifier, ".")
    if _is_relative_js(raw):
        module = _resolve_js_in(raw, directory)
        if module == raw:
            return module, (), ""
    else:
        module = raw
    pairs = [(short, f"{module}.{name}") for name, short in _named_imports(names)] if names else []
    if default:  # `import Button from "./Button"`: the default export, named as imported
        pairs.append((default, f"{module}.{default}"))
    namespace = _clean_name(alias, ".") if alias else ""
    if namespace:
        pairs.append((namespace, module))
    return module, tuple(pairs), namespace


def extract(body: str, language: str, path: str, grammar: Grammar) -> Extracted:
    src = body.encode("utf-8")
    tree = parser_of(grammar).parse(_separated_signatures(src, grammar.key))
    plan = plan_of(grammar)
    text = _slicer(body, src)
    sep = grammar.package_sep

    defs: dict[tuple[int, int, int | str], _Def] = {}
    package = ""
    imports: list[str] = []
    aliases: dict[str, str] = {}
    namespaces: set[str] = set()  # TS/JS local names bound to a whole module, not to a name
    bound: dict[str, str] = {}  # local name -> the declaration an import binds it to
    ref_nodes: list[Node] = []
    decorated: set[int] = set()  # start bytes of declarations with decorators before them
    import_calls: set[int] = set()  # start bytes of `require` in `require("x")`: no references

    def clean(node: Node) -> str:
        return _clean_name(text(node.start_byte, node.end_byte), sep)

    js = language in JS_LANGUAGES
    directory = path.rpartition("/")[0]
    rank_of: dict[tuple[int, int, int | str], int] = {}  # which pattern declared a node
    has_decl_only = False
    for qpass in plan.passes:
        ref_patterns, def_capture, misc_patterns, rank, element_patterns = (
            qpass.ref_patterns,
            qpass.def_capture,
            qpass.misc_patterns,
            qpass.rank,
            qpass.element_patterns,
        )
        cursor = QueryCursor(qpass.query)
        if qpass.max_start_depth is not None:
            cursor.set_max_start_depth(qpass.max_start_depth)
        for pattern, caps in cursor.matches(tree.root_node):
            if pattern in ref_patterns:  # one capture: its nodes
                ref_nodes += caps.popitem()[1]
                continue
            if pattern in element_patterns:  # `<OrderView />` references; `<div>` does not
                element = caps.popitem()[1][0]
                if not src[element.start_byte : element.start_byte + 1].islower():
                    ref_nodes.append(element)
                continue
            def_cap = def_capture[pattern]
            names = caps.get("name")
            if def_cap and names:
                node = caps[def_cap][0]
                # the name's offset too: `var a = 1, b = 2` is one node declaring two names
                key: tuple[int, int, int | str] = (
                    node.start_byte,
                    node.end_byte,
                    names[0].start_byte,
                )
                if key not in defs or rank_of[key] > rank[pattern]:  # the earlier one wins
                    rank_of[key] = rank[pattern]
                    parent = caps.get("parent")
                    body_cap = caps.get("body")
                    defs[key] = _Def(
                        key[0],
                        key[1],
                        def_cap[4:],
                        clean(names[0]),
                        node,
                        params=caps["params"][0] if "params" in caps else None,
                        parent=clean(parent[0]) if parent else None,
                        body_start=body_cap[0].start_byte if body_cap else None,
                        decl_only="decl" in caps,
                    )
                    has_decl_only = has_decl_only or "decl" in caps
            if pattern not in misc_patterns:
                continue
            if "scope" in caps and "scope.name" in caps:
                node = caps["scope"][0]
                scope_key: tuple[int, int, int | str] = (node.start_byte, node.end_byte, "scope")
                if scope_key not in defs:
                    defs[scope_key] = _Def(
                        node.start_byte,
                        node.end_byte,
                        "",
                        clean(caps["scope.name"][0]),
                        node,
                        is_scope=True,
                    )
            if "decorated" in caps:
                decorated.add(caps["decorated"][0].start_byte)
            if "package" in caps and not package:
                package = clean(caps["package"][0])
            via = caps.get("import.via")
            if via:
                call_at = via[0].start_byte
                if call_at in import_calls:  # the same `require` again (bare, then bound)
                    if "import.alias" not in caps and "import.names" not in caps:
                        continue
                elif _node_text(text, via[0]) in IMPORT_CALLS:
                    import_calls.add(call_at)
                else:
                    continue  # a call with a string argument, not an import
            if "import" in caps and js:
                names_cap = caps.get("import.names")
                alias_cap = caps.get("import.alias")
                default_cap = caps.get("import.default")
                module, pairs, namespace = _js_import(
                    _node_text(text, caps["import"][0]),
                    _node_text(text, names_cap[0]) if names_cap else "",
                    _node_text(text, alias_cap[0]) if alias_cap else "",
                    directory,
                    _node_text(text, default_cap[0]) if default_cap else "",
                )
                if module:
                    imports.append(module)
                    if pairs:
                        aliases.update(pairs)
                        bound.update(pair for pair in pairs if pair[0] != namespace)
                    if namespace:
                        namespaces.add(namespace)
            elif "import" in caps:
                module = clean(caps["import"][0])
                if module:
                    imports.append(module)
                    alias = caps.get("import.alias")
                    short = clean(alias[0]) if alias else module.split(".")[-1]
                    aliases[short] = module
                    if language in NAME_IMPORT_LANGUAGES:
                        bound[short] = module
            if "import.module" in caps:
                raw = clean(caps["import.module"][0])
                module = _resolve_relative(raw, path, language)
                imports.append(f"{module}.*" if "import.star" in caps else module)
                if "import.name" in caps:
                    name = clean(caps["import.name"][0])
                    alias = caps.get("import.alias")
                    short = clean(alias[0]) if alias else name
                    if module.strip("."):
                        aliases[short] = bound[short] = f"{module.lstrip('.')}.{name}"
                    else:
                        aliases[short] = name
    if import_calls:  # `require("x")` imports x: it calls nothing the repository declares
        ref_nodes = [n for n in ref_nodes if n.start_byte not in import_calls]
    starts: list[int] = list(map(_START_BYTE, ref_nodes))
    ends: list[int] = list(map(_END_BYTE, ref_nodes))
    if len(src) == len(body):  # ASCII: slice the str directly
        ref_names = [body[start:end] for start, end in zip(starts, ends, strict=True)]
    else:
        ref_names = [text(start, end) for start, end in zip(starts, ends, strict=True)]
    qualifiers: list[str | None] = [None] * len(starts)  # the text before each name
    if aliases:  # a qualifier only matters when an import may resolve it
        ascii_src = len(src) == len(body)
        for i, start in enumerate(starts):
            if not start or src[start - 1] not in _QUALIFIER_ENDS:
                continue  # no `x.` before the name: no qualifier
            # the tree says exactly what qualifies a name, at the price of walking to its
            # parent: ask it only when an import could be at stake, the name or the word
            # written before the separator being an imported one (otherwise any qualifier
            # leaves the reference unqualified: _references)
            if (
                ascii_src
                and ref_names[i] not in aliases
                and not _alias_before(body, start, aliases)
            ):
                continue
            before = ref_nodes[i].prev_named_sibling
            if before is not None and before.type in QUALIFIER_TYPES:
                qualifiers[i] = _node_text(text, before)

    keywords = KEYWORDS.get(grammar.key, frozenset())
    if any(d.name in keywords for d in defs.values()):  # rare: a parse recovered by guessing?
        defs = {k: d for k, d in defs.items() if d.name not in keywords or not _recovered(d.node)}
    blank = BLANK.get(grammar.key)
    if blank is not None and any(d.name == blank for d in defs.values()):
        defs = {k: d for k, d in defs.items() if d.name != blank}
    prefix = package or module_prefix(path, language)
    ordered = sorted(defs.values(), key=lambda d: (d.start, -d.end, d.is_scope is False))
    stack: list[_Def] = []
    symbols: list[_Def] = []
    for d in ordered:
        while stack and (
            stack[-1].end <= d.start or (stack[-1].start == d.start and stack[-1].end == d.end)
        ):  # ended, or a sibling in the same declaration (`var a, b`): not an owner
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

    if has_decl_only:
        defined = {(d.fq, _param_types(text, src, d.params)) for d in symbols if not d.decl_only}
        symbols = [
            d
            for d in symbols
            if not (d.decl_only and (d.fq, _param_types(text, src, d.params)) in defined)
        ]
    if len(symbols) > 1:
        _disambiguate(text, src, symbols)
    whole = memoryview(src)  # digests hash slices of it without copying them
    out = []
    for d in symbols:
        start_row, _ = d.node.start_point
        end_row, end_column = d.node.end_point
        start = d.start
        # decorators written before a declaration belong to it: its lines and digest start
        # with them (reading startLine..endLine gets `@property` too), as its signature does
        decorators = (
            _outer_decorations(d.node, grammar.decorations)
            if decorated and d.start in decorated and grammar.decorations
            else []
        )
        if decorators:
            start_row = decorators[0].start_point[0]
            start = decorators[0].start_byte
        out.append(
            {
                "fq_name": d.fq,
                "name": d.name,
                "kind": d.kind,
                "signature": _signature(text, d, grammar, decorators),
                "start_line": start_row + 1,
                # a node ending with its newline ends on the line before
                "end_line": end_row if end_column == 0 and end_row > start_row else end_row + 1,
                "digest": xxhash.xxh3_64_hexdigest(whole[start : d.end]),
            }
        )
    out.sort(key=_line_then_name)
    # a call through an imported declaration references it; not in Python, where `from
    # django.db import models` binds a module as often as a declaration
    through = bound if language != "python" else None
    references, dropped = (
        _references(starts, ref_names, qualifiers, symbols, aliases, namespaces, through)
        if starts
        else ([], 0)
    )
    if bound:
        references, dropped = _imported_unreferenced(references, dropped, bound)
    return Extracted(out, sorted(set(imports)), references, dropped)


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


def _line_then_name(symbol: dict[str, Any]) -> tuple[int, str]:
    return symbol["start_line"], symbol["fq_name"]


def _disambiguate(text: Callable[[int, int], str], src: bytes, symbols: list[_Def]) -> None:
    """Same fq name twice in one file (overloads): append the parameter types, then `#n`."""
    if len({d.fq for d in symbols}) == len(symbols):
        return
    by_fq: dict[str, list[_Def]] = {}
    for d in symbols:
        by_fq.setdefault(d.fq, []).append(d)
    for fq, same in by_fq.items():
        if len(same) < 2:
            continue
        for d in same:  # a declaration without parameters (a type, a field) gets `#n` only
            d.fq = f"{fq}({_param_types(text, src, d.params)})" if d.params is not None else fq
        seen: dict[str, int] = {}
        for d in same:
            n = seen.get(d.fq, 0) + 1
            seen[d.fq] = n
            if n > 1:
                d.fq = f"{d.fq}#{n}"
    # a nested symbol's fq was built from its owner's old name; rebuild descendants' prefixes
    # is unnecessary for overloads (methods rarely nest declarations that matter) - kept simple.


def _owners(symbols: list[_Def]) -> tuple[list[int], list[str]]:
    """The file cut into segments by its declarations: a reference at byte b belongs to
    `owners[bisect_right(bounds, b) - 1]`, the fq name of the innermost declaration around it
    ("" at file level). A declaration ends for its references when every declaration that
    started inside it has ended too (the stack below), which keeps `bounds` sorted.
    `symbols` come by start, the outer one first (as extract orders them)."""
    bounds, owners = [0], [""]
    stack: list[tuple[int, str]] = [(1 << 62, "")]  # (end byte, fq name); the file at the bottom
    for d in symbols:  # in source order, outer before inner (extract sorted them)
        start = d.start
        while stack[-1][0] <= start:
            end = stack.pop()[0]
            bounds.append(max(bounds[-1], end))
            owners.append(stack[-1][1])
        stack.append((d.end, d.fq))
        bounds.append(start)
        owners.append(d.fq)
    while len(stack) > 1:
        end = stack.pop()[0]
        bounds.append(max(bounds[-1], end))
        owners.append(stack[-1][1])
    return bounds, owners


def _imported_unreferenced(
    references: list[Reference], dropped: int, bound: dict[str, str]
) -> tuple[list[Reference], int]:
    """Each imported declaration no reference resolved to, as a file-level reference: the
    import is the file's use of it (`from .blueprints import Blueprint` for an `isinstance(x,
    Blueprint)`, an `extends`, an assignment, a re-export), which calls and type captures
    alone would miss. One already referenced needs no second entry."""
    used = {qualified for _owner, _name, qualified in references}
    extra: list[Reference] = [
        ("", qualified.rpartition(".")[2], qualified)
        for qualified in dict.fromkeys(bound.values())
        if qualified not in used and 0 < len(qualified.rpartition(".")[2]) <= MAX_NAME_CHARS
    ]
    if not extra:
        return references, dropped
    room = max(0, MAX_REFERENCES - len(references))
    return references + extra[:room], dropped + max(0, len(extra) - room)


def _references(
    starts: list[int],
    names: list[str],
    qualifiers: list[str | None],
    symbols: list[_Def],
    aliases: dict[str, str],
    namespaces: set[str] | frozenset[str] = frozenset(),
    bound: dict[str, str] | None = None,
) -> tuple[list[Reference], int]:
    """(owner, name, qualified) of each distinct reference, in the order of the source: the
    owner is the innermost enclosing declaration, the qualifier resolved through the imports.
    Duplicates go first (a file names the same things again and again), at C speed. Past
    MAX_REFERENCES the rest is counted, not kept (the second value). A TS/JS name bound to a
    whole module (`namespaces`) qualifies what is called through it, but called itself
    (`debug("x")` after `const debug = require("debug")`) names no declaration we can tell.
    A call through an imported declaration (`bound`: `notifyManager.batch()`) references it
    too."""
    if symbols:
        bounds, owners = _owners(symbols)
        owner_of: list[str] = [owners[bisect_right(bounds, start) - 1] for start in starts]
    else:
        owner_of = [""] * len(starts)
    # matches nearly always come in source order; sort only when they do not
    if all(map(le, starts, islice(starts, 1, None))):
        found: Iterable[tuple[str, str, str | None]] = zip(owner_of, names, qualifiers, strict=True)
    else:
        order = sorted(range(len(starts)), key=starts.__getitem__)
        found = ((owner_of[i], names[i], qualifiers[i]) for i in order)
    # reference captures are identifier tokens: never padded, empty only when tree-sitter
    # inserted a MISSING one while recovering from a syntax error
    # nothing qualified (no qualifier, no name an import binds): the distinct triples are the
    # references
    if not aliases or (not any(qualifiers) and aliases.keys().isdisjoint(names)):
        out = [ref for ref in dict.fromkeys(found) if 0 < len(ref[1]) <= MAX_NAME_CHARS]
        return out[:MAX_REFERENCES], max(0, len(out) - MAX_REFERENCES)
    # an imported name as (declared name, qualified): `Item as It` is `Item`, `m.Item`
    imported = {
        short: (qualified.rpartition(".")[2], qualified)
        for short, qualified in aliases.items()
        if short not in namespaces
    }
    unique: dict[Reference, None] = {}
    for owner, name, qualifier in dict.fromkeys(found):
        if not name or len(name) > MAX_NAME_CHARS:
            continue
        if qualifier is not None:
            module = aliases.get(qualifier)
            unique[(owner, name, f"{module}.{name}" if module is not None else None)] = None
            if bound and qualifier in bound:
                through = bound[qualifier]
                unique[(owner, through.rpartition(".")[2], through)] = None
        elif name in imported:
            unique[(owner, *imported[name])] = None
        else:
            unique[(owner, name, None)] = None
    out = list(islice(unique, MAX_REFERENCES))
    dropped = max(0, len(unique) - MAX_REFERENCES)
    if len({(s, n) for s, n, _q in out}) == len(out):
        return out, dropped  # no name referenced both through an import and not, in one owner
    # an import-qualified reference makes the unqualified duplicate of the same call redundant
    qualified_pairs = {(s, n) for s, n, q in out if q is not None}
    kept = [(s, n, q) for s, n, q in out if q is not None or (s, n) not in qualified_pairs]
    return kept, dropped
