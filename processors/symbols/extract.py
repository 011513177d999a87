"""Symbols and references of one file, from a tree-sitter parse and the language's query.

The query files (queries/<lang>.scm) say WHAT is a declaration, a reference or an import, by
capture names; this module reads the matches the same way for every language, asking the
language's rules (languages/) where languages differ, then hands over to nesting.py (fq
names, kinds, records) and references.py (qualifiers, owners):

- `@def.<Kind>` the declaration node (Kind is one of schemas.symbols.SYMBOL_KINDS), with
  `@name` its name (or `@name.<Name>` on any node of one the language names without the
  source writing it: Kotlin's unnamed companion object is `Companion`), optionally
  `@params` (overload disambiguation), `@parent` (an explicit owner, e.g. a Go method's
  receiver type) and `@body` (where the signature ends, when the node has no `body` field);
- `@scope` + `@scope.name`: a naming scope that is not itself a symbol (a Rust `impl`);
- `@package`: the file's package/namespace, prefixed to every fq name;
- `@import.tree`: a use tree the language's rules expand into imports (Rust);
- `@import` (a module), or `@import.module` + `@import.name`, optionally `@import.alias`,
  or `@import.module` + `@import.star` (`from x import *`: the import `x.*`);
  TS/JS: `@import` with `@import.names` (`{ A, B as C }`) or `@import.alias` (`* as ns`)
  and a default import's name (`@import.default`), one match per statement (js_ts);
  with `@import.via` (Ruby's `require "x"` is a plain call) only when that names an import;
- `@decl` on a declaration without a body (a C prototype, a C++ in-class method
  declaration): dropped when the file also defines the same name with the same parameters;
- `@top` on a declaration kept only at file level, as the language's rules say (a C
  global or prototype, possibly inside `#ifdef` or `extern "C"`, not a function's local);
- `@decorated`: a declaration with decorators/attributes written before it (Python's
  `decorated_definition`, TypeScript members, Rust items); their text (bounded) leads its
  signature, as do annotations inside the node (Java, Kotlin, C#, PHP);
- `@ref.element`: a JSX element's name, a reference unless written in lower case (HTML);
- `@ref.call` / `@ref.type`: a referenced simple name. Its qualifier (the `pkg` in
  `pkg.Name`, resolved through the file's imports) is the identifier just before it in the
  same member/selector/scoped node, so a reference pattern has exactly one capture
  (`@ref.qualifier` only documents it) and costs no grouping (grammars.QueryPlan).

Performance (the stage must cost at most 2x a bare parse): one walk over the tree for all
patterns but the root-anchored ones, which run in a pass limited to the root
(grammars.QueryPlan); node texts are str slices (ASCII files) not decodes; records are
validated once per file from plain dicts and tuples (processor.py); digests hash memoryview
slices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node, QueryCursor, Tree

from processors.symbols.declaration import MAX_NAME_CHARS, Declaration, clean_name
from processors.symbols.grammars import Grammar, QueryPass, QueryPlan, parser_of, plan_of
from processors.symbols.languages import LanguageRules, rules_for
from processors.symbols.languages.js_ts import (
    JS_EXTENSIONS,
    STAR_REEXPORT,
    js_import,
    local_exports,
    named_reexport,
    namespace_import,
    reexported,
    renamed_exports,
    star_reexport,
    strip_js_extension,
)
from processors.symbols.nesting import disambiguate, kept, nest, records, without_declared_only
from processors.symbols.references import (
    MAX_REFERENCES,
    reference_sites,
    references_of,
)
from processors.symbols.signatures import _node_text, _separated_signatures, _slicer
from schemas.symbols import Reference

# what other layers import from here (query_api, streams), kept where they look for it
__all__ = [
    "JS_EXTENSIONS",
    "MAX_NAME_CHARS",
    "MAX_REFERENCES",
    "Extracted",
    "extract",
    "module_prefix",
    "strip_js_extension",
]

_Key = tuple[int, int, int | str]


@dataclass(slots=True)
class Extracted:
    """The fields of schemas.symbols.SymbolDef as plain dicts, and the references as the
    record's tuples: the records validate them in one call per file."""

    symbols: list[dict[str, Any]]
    imports: list[str]
    references: list[Reference]
    references_dropped: int = 0  # distinct references past MAX_REFERENCES, left out


def module_prefix(path: str, language: str) -> str:
    """The module a file's declarations live in by its path (Python's `pkg/mod.py` ->
    `pkg.mod`), "" in languages where a file's path names no module."""
    return rules_for(language).module_prefix(path)


def extract(body: str, language: str, path: str, grammar: Grammar) -> Extracted:
    src = body.encode("utf-8")
    rules = rules_for(language)
    tree = _parse(grammar, rules, src)
    text = _slicer(body, src)
    found = _Matcher(text, src, grammar.package_sep, rules, path).run(tree, plan_of(grammar))
    sites = reference_sites(
        found.ref_nodes,
        found.import_calls,
        found.aliases,
        body,
        src,
        text,
        rules.js_modules,
        rules.qualified_paths,
        rules.path_from_file,
    )
    prefix = found.package or rules.module_prefix(path)
    symbols = nest(kept(found.defs, grammar.key).values(), prefix)
    if found.has_decl_only:
        symbols = without_declared_only(symbols, text, src)
    if len(symbols) > 1:
        disambiguate(text, src, symbols)
    out = records(symbols, grammar, text, src, found.decorated)
    references, dropped = references_of(
        sites,
        symbols,
        found.aliases,
        found.namespaces,
        found.bound,
        rules.references_through_imports,
        rules.qualified_paths,
    )
    imports = sorted(set(found.imports))
    if found.exports and not imports:
        # an ES module importing nothing: an empty entry of its own exports, so that the
        # resolver does not take it for a script whose names are globals (js_family)
        imports = [local_exports(())]
    return Extracted(out, imports, references, dropped)


def _parse(grammar: Grammar, rules: LanguageRules, src: bytes) -> Tree:
    """The tree of `src` as repaired for its language (offsets and lines unchanged), parsed
    a second time with the language's repair for errors when the first parse has one."""
    parser = parser_of(grammar)
    source = rules.repair_source(_separated_signatures(src, grammar.key))
    tree = parser.parse(source)
    if rules.repair_on_error is not None and tree.root_node.has_error:
        repaired = rules.repair_on_error(source)
        if repaired != source:
            tree = parser.parse(repaired)
    return tree


@dataclass(slots=True)
class _Found:
    """What one file's query matches say, before nesting."""

    defs: dict[_Key, Declaration] = field(default_factory=dict)
    rank_of: dict[_Key, int] = field(default_factory=dict)  # which pattern declared a node
    has_decl_only: bool = False
    package: str = ""
    imports: list[str] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    # TS/JS local names bound to a whole module, not to a name
    namespaces: set[str] = field(default_factory=set)
    bound: dict[str, str] = field(default_factory=dict)  # local name -> the imported declaration
    ref_nodes: list[Node] = field(default_factory=list)
    decorated: set[int] = field(default_factory=set)  # starts of declarations with decorators
    import_calls: set[int] = field(default_factory=set)  # starts of `require` in `require("x")`
    exports: bool = False  # a top-level `export` statement (an ES module)


class _Matcher:
    """Reads one file's query matches into _Found, pattern by pattern."""

    def __init__(
        self,
        text: Callable[[int, int], str],
        src: bytes,
        sep: str,
        rules: LanguageRules,
        path: str,
    ) -> None:
        self.text = text
        self.src = src
        self.sep = sep
        self.rules = rules
        self.path = path
        self.directory = path.rpartition("/")[0]
        self.found = _Found()

    def clean(self, node: Node) -> str:
        return clean_name(self.text(node.start_byte, node.end_byte), self.sep)

    def run(self, tree: Tree, plan: QueryPlan) -> _Found:
        ref_nodes, src = self.found.ref_nodes, self.src
        for qpass in plan.passes:
            ref_patterns, element_patterns = qpass.ref_patterns, qpass.element_patterns
            def_capture, misc_patterns = qpass.def_capture, qpass.misc_patterns
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
                if def_cap and (caps.get("name") or qpass.implied_names[pattern]):
                    self.declaration(qpass, pattern, def_cap, caps)
                if pattern in misc_patterns:
                    self.misc(caps)
        return self.found

    def declaration(
        self, qpass: QueryPass, pattern: int, def_cap: str, caps: dict[str, list[Node]]
    ) -> None:
        found = self.found
        implied = qpass.implied_names[pattern]
        node = caps[def_cap][0]
        name = caps[f"name.{implied}" if implied else "name"][0]
        if "top" in caps and not self.rules.at_file_level(node):
            return  # a local (languages/c_family.py)
        if "decl" in caps and not self.rules.declares(node):
            return  # a C++ friend's prototype
        # the name's offset too: `var a = 1, b = 2` is one node declaring two names
        key: _Key = (node.start_byte, node.end_byte, name.start_byte)
        rank = qpass.rank[pattern]
        if key in found.defs and found.rank_of[key] <= rank:  # the earlier pattern wins
            return
        found.rank_of[key] = rank
        parent = caps.get("parent")
        body_cap = caps.get("body")
        found.defs[key] = Declaration(
            key[0],
            key[1],
            def_cap[4:],
            implied or self.clean(name),
            node,
            params=caps["params"][0] if "params" in caps else None,
            parent=self.clean(parent[0]) if parent else None,
            body_start=body_cap[0].start_byte if body_cap else None,
            decl_only="decl" in caps,
        )
        found.has_decl_only = found.has_decl_only or "decl" in caps

    def misc(self, caps: dict[str, list[Node]]) -> None:
        """Scopes, decorators, the package and imports."""
        found = self.found
        if "scope" in caps and "scope.name" in caps:
            node = caps["scope"][0]
            scope_key: _Key = (node.start_byte, node.end_byte, "scope")
            if scope_key not in found.defs:
                found.defs[scope_key] = Declaration(
                    node.start_byte,
                    node.end_byte,
                    "",
                    self.clean(caps["scope.name"][0]),
                    node,
                    is_scope=True,
                )
        if "decorated" in caps:
            found.decorated.add(caps["decorated"][0].start_byte)
        if "export" in caps:
            found.exports = True
        if "package" in caps and not found.package:
            found.package = self.clean(caps["package"][0])
        if "import.via" in caps and not self.imports_through_call(caps):
            return
        if "import.exports" in caps and self.rules.js_modules:
            renamed = renamed_exports(self.text, caps["import.exports"][0])
            if renamed:
                self.found.imports.append(local_exports(renamed))
        if "import.tree" in caps:
            self.tree_import(caps["import.tree"][0])
        if "import" in caps:
            if self.rules.js_modules:
                self.js_import(caps)
            else:
                self.plain_import(caps)
        if "import.module" in caps:
            self.module_import(caps)

    def imports_through_call(self, caps: dict[str, list[Node]]) -> bool:
        """Whether a call with a string argument (`require("x")`) is an import, and a new
        one: the same `require` matches again when bound (`const m = require("m")`)."""
        via = caps["import.via"][0]
        call_at = via.start_byte
        if call_at in self.found.import_calls:
            return "import.alias" in caps or "import.names" in caps
        if _node_text(self.text, via) in self.rules.import_calls:
            self.found.import_calls.add(call_at)
            return True
        return False

    def js_import(self, caps: dict[str, list[Node]]) -> None:
        found, text = self.found, self.text
        names_cap = caps.get("import.names")
        alias_cap = caps.get("import.alias")
        default_cap = caps.get("import.default")
        module, pairs, namespace = js_import(
            _node_text(text, caps["import"][0]),
            _node_text(text, names_cap[0]) if names_cap else "",
            _node_text(text, alias_cap[0]) if alias_cap else "",
            self.directory,
            _node_text(text, default_cap[0]) if default_cap else "",
        )
        if not module:
            return
        exported, names = reexported(text, caps["import"][0]) or ("", [])
        if exported == STAR_REEXPORT:  # `export * from "./x"`
            found.imports.append(star_reexport(module))
        elif exported:  # `export * as ns from "./x"`
            found.imports.append(namespace_import(module, exported))
        elif names:  # `export { a, b as c } from "./x"`
            found.imports.append(named_reexport(module, names))
            # the re-export is the file's use of each name (a file-level reference, as for
            # `import { a } ...; export { a }`); keyed by no local name the file could use,
            # one per name exported (`export { default as ar }`, `{ default as be }`, ...)
            found.bound.update(
                (f"export {exported}", f"{module}.{name}") for name, exported in names
            )
        elif namespace and not names_cap and not default_cap and "import.via" not in caps:
            found.imports.append(namespace_import(module, namespace))  # `import * as ns`
        else:
            found.imports.append(module)
        if pairs:
            found.aliases.update(pairs)
            found.bound.update(pair for pair in pairs if pair[0] != namespace)
        if namespace:
            found.namespaces.add(namespace)

    def plain_import(self, caps: dict[str, list[Node]]) -> None:
        found = self.found
        module = self.clean(caps["import"][0])
        if not module:
            return
        found.imports.append(module)
        alias = caps.get("import.alias")
        short = self.clean(alias[0]) if alias else module.split(".")[-1]
        found.aliases[short] = module
        if self.rules.import_binds_declaration:
            found.bound[short] = module

    def tree_import(self, node: Node) -> None:
        """A use tree (Rust): one import per leaf, each local name bound to its path."""
        expand = self.rules.import_tree
        if expand is None:
            return
        found = self.found
        for path, local in expand(node, _node_text(self.text, node)):
            found.imports.append(self.rules.import_entry(path, local))
            if local:
                found.aliases[local] = path
                if self.rules.import_binds_declaration:
                    found.bound[local] = path

    def module_import(self, caps: dict[str, list[Node]]) -> None:
        """`from module import name [as alias]`, `from module import *` and their kin."""
        found = self.found
        written = self.clean(caps["import.module"][0])
        module = self.rules.resolve_module(written, self.path)
        name = self.clean(caps["import.name"][0]) if "import.name" in caps else ""
        if name and module.strip(".") and not written.strip("."):
            # `from . import types` imports the sibling module `types` (or a name the package
            # declares: the dependents resolver's imports fall back to the package's file)
            found.imports.append(f"{module}.{name}")
        else:
            found.imports.append(f"{module}.*" if "import.star" in caps else module)
        if not name:
            return
        alias = caps.get("import.alias")
        short = self.clean(alias[0]) if alias else name
        if module.strip("."):
            found.aliases[short] = found.bound[short] = f"{module.lstrip('.')}.{name}"
        else:
            found.aliases[short] = name
