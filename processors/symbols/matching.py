"""Matching: one file's query matches read into `Found` (declaration.py), the same way for
every language, asking the language's rules (languages/) where languages differ. The query
files (queries/<lang>.scm) say WHAT is a declaration, a reference or an import, by capture
names:

- `@def.<Kind>` the declaration node (Kind is one of schemas.symbols.SYMBOL_KINDS), with
  `@name` its name (or `@name.<Name>` on any node of one the language names without the
  source writing it: Kotlin's unnamed companion object is `Companion`), optionally
  `@params` (overload disambiguation), `@parent` (an explicit owner, e.g. a Go method's
  receiver type) and `@body` (where the signature ends, when the node has no `body` field);
- `@scope` + `@scope.name`: a naming scope that is not itself a symbol (a Rust `impl`), or
  `@scope` + `@name.<Name>` for one the source names no type of (`impl Tr for ()`: `unit`);
- `@package`: the file's package/namespace, prefixed to every fq name;
- `@import.tree`: a use tree the language's rules expand into imports (Rust);
- `@import` (a module), or `@import.module` + `@import.name`, optionally `@import.alias`,
  or `@import.module` + `@import.star` (`from x import *`: the import `x.*`);
  TS/JS: `@import` with `@import.names` (`{ A, B as C }`) or `@import.alias` (`* as ns`)
  and a default import's name (`@import.default`), one match per statement; a local
  export list (`@import.exports`) and a top-level export statement (`@export`): read by
  the language's `read_imports` (js_ts_imports);
  with `@import.via` (Ruby's `require "x"` is a plain call) only when that names an import;
- `@decl` on a declaration without a body (a C prototype, a C++ in-class method
  declaration): dropped when the file also defines the same name with the same parameters;
- `@top` on a declaration kept only at file level, as the language's rules say (a C
  global or prototype, possibly inside `#ifdef` or `extern "C"`, not a function's local);
- `@decorated`: a declaration with decorators/attributes written before it (Python's
  `decorated_definition`, TypeScript members, Rust items); their text (bounded) leads its
  signature, as do annotations inside the node (Java, Kotlin, C#, PHP);
- `@ref.element`: a name that is a reference unless written in lower case (past a quoting
  backtick or `@` and leading underscores): a JSX element's (`<div>` is HTML), a Java, Kotlin
  or C# class's before a dot (`list.size()`, `_repo.Get()` read variables);
- `@ref.value`: a name read as a value (Python's `click.Abort` in `except click.Abort:`), a
  reference only where an import qualifies it (LanguageRules.imported_member);
- `@ref.call` / `@ref.type`: a referenced simple name. Its qualifier (the `pkg` in
  `pkg.Name`, resolved through the file's imports) is the identifier just before it in the
  same member/selector/scoped node, so a reference pattern has exactly one capture
  (`@ref.qualifier` only documents it) and costs no grouping (grammars.QueryPlan).
"""

from __future__ import annotations

from tree_sitter import Node, QueryCursor, Tree

from processors.symbols.declaration import (
    Captures,
    Declaration,
    Found,
    Key,
    ScopedAlias,
    Slicer,
    clean_name,
)
from processors.symbols.grammars import QueryPass, QueryPlan
from processors.symbols.languages import LanguageRules
from processors.symbols.references import OWNER_KEY
from processors.symbols.signatures import _node_text


class Matcher:
    """Reads one file's query matches into Found, pattern by pattern."""

    def __init__(self, text: Slicer, src: bytes, sep: str, rules: LanguageRules, path: str) -> None:
        self.text = text
        self.src = src
        self.sep = sep
        self.rules = rules
        self.path = path
        self.directory = path.rpartition("/")[0]
        self.found = Found()

    def clean(self, node: Node) -> str:
        return clean_name(self.text(node.start_byte, node.end_byte), self.sep)

    def run(self, tree: Tree, plan: QueryPlan) -> Found:
        ref_nodes, value_nodes, src = self.found.ref_nodes, self.found.value_nodes, self.src
        for qpass in plan.passes:
            ref_patterns, element_patterns = qpass.ref_patterns, qpass.element_patterns
            value_patterns = qpass.value_patterns
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
                    # past a quote and leading underscores: Kotlin's `in`.read(), C#'s
                    # @in.Read() and _repo.Get() read variables as list.size() does
                    first = src[element.start_byte : element.end_byte].lstrip(b"`@_")[:1]
                    if first and not first.islower():
                        ref_nodes.append(element)
                    continue
                if pattern in value_patterns:  # kept or not once the imports are known
                    value_nodes += caps.popitem()[1]
                    continue
                def_cap = def_capture[pattern]
                if def_cap and (caps.get("name") or qpass.implied_names[pattern]):
                    self.declaration(qpass, pattern, def_cap, caps)
                if pattern in misc_patterns:
                    self.misc(caps, qpass.implied_names[pattern])
        return self.found

    def declaration(self, qpass: QueryPass, pattern: int, def_cap: str, caps: Captures) -> None:
        found = self.found
        implied = qpass.implied_names[pattern]
        node = caps[def_cap][0]
        name = caps[f"name.{implied}" if implied else "name"][0]
        if "top" in caps and not self.rules.at_file_level(node):
            return  # a local (languages/c_family.py)
        if "decl" in caps and not self.rules.declares(node):
            return  # a C++ friend's prototype
        # the name's offset too: `var a = 1, b = 2` is one node declaring two names
        key: Key = (node.start_byte, node.end_byte, name.start_byte)
        rank = qpass.rank[pattern]
        if key in found.defs and found.rank_of[key] <= rank:  # the earlier pattern wins
            return
        found.rank_of[key] = rank
        parent = caps.get("parent")
        body_cap = caps.get("body")
        declared = implied or self.clean(name)
        params = caps["params"][0] if "params" in caps else None
        from_macro = self.rules.macro_declared_name
        if from_macro is not None and (named := from_macro(declared, node, self.text)):
            declared, params = named, None  # the macro's arguments are not parameters
        found.defs[key] = Declaration(
            key[0],
            key[1],
            def_cap[4:],
            declared,
            node,
            params=params,
            parent=self.clean(parent[0]) if parent else None,
            body_start=body_cap[0].start_byte if body_cap else None,
            decl_only="decl" in caps,
        )
        found.has_decl_only = found.has_decl_only or "decl" in caps

    def misc(self, caps: Captures, implied: str = "") -> None:
        """Scopes, decorators, the package and imports; `implied`: the pattern's scope name
        when the source writes none (`@name.<Name>`)."""
        found = self.found
        if "scope" in caps:
            if "scope.name" in caps:
                self.scope(caps["scope"][0], self.clean(caps["scope.name"][0]))
            elif implied:
                self.scope(caps["scope"][0], implied)
        if "decorated" in caps:
            found.decorated.add(caps["decorated"][0].start_byte)
        if "package" in caps and not found.package:
            found.package = self.clean(caps["package"][0])
        if "import.via" in caps and not self.imports_through_call(caps):
            return
        read_imports = self.rules.read_imports
        if read_imports is not None:
            read_imports(found, self.text, caps, self.directory)
        elif "import" in caps:
            self.plain_import(caps)
        if "import.tree" in caps:
            self.tree_import(caps["import.tree"][0])
        if "import.module" in caps:
            self.module_import(caps)

    def scope(self, node: Node, name: str) -> None:
        """A naming scope that is not itself a symbol (a Rust `impl`)."""
        scope_key: Key = (node.start_byte, node.end_byte, "scope")
        if scope_key not in self.found.defs:
            self.found.defs[scope_key] = Declaration(
                node.start_byte, node.end_byte, "", name, node, is_scope=True
            )

    def imports_through_call(self, caps: Captures) -> bool:
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

    def plain_import(self, caps: Captures) -> None:
        found = self.found
        module = self.clean(caps["import"][0])
        if not module:
            return
        found.imports.append(module)
        alias = caps.get("import.alias")
        if alias:
            short = self.clean(alias[0])
        elif self.rules.dotted_modules:  # Python's `import a.b` binds `a`; `a.b.f()` follows
            short = module.split(".")[0]
            module = short
        else:
            short = module.split(".")[-1]
        binds = self.rules.import_binds_declaration
        if self.bind_in_scope(caps["import"][0], short, module, binds):
            return
        found.aliases[short] = module
        if binds:
            found.bound[short] = module
            for owner in self.rules.import_owners(module):  # no local name: nothing resolves
                found.bound.setdefault(f"{OWNER_KEY}{owner}", owner)

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

    def module_import(self, caps: Captures) -> None:
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
            if name and module.strip("."):
                # `from pkg import mod` imports pkg/mod.py when that is a module, else a name
                # pkg declares: both are recorded, the dependents resolver keeps the one that
                # is a file (python_modules.imported_modules; QA on pypa/pipx's main.py)
                found.imports.append(f"{module}.{name}")
        if not name:
            return
        alias = caps.get("import.alias")
        short = self.clean(alias[0]) if alias else name
        binds = bool(module.strip("."))
        qualified = f"{module.lstrip('.')}.{name}" if binds else name
        if self.bind_in_scope(caps["import.module"][0], short, qualified, binds):
            return
        found.aliases[short] = qualified
        if binds:
            found.bound[short] = qualified

    def bind_in_scope(self, node: Node, short: str, qualified: str, binds: bool) -> bool:
        """Whether the import `node` stands in binds `short` in a function's or a class's body
        only (LanguageRules.import_scope): then it qualifies the references there alone
        (Found.scoped, one entry per span: a class body's without its methods'); `binds`: it
        names a declaration (Found.bound)."""
        spans = self.rules.import_scope(node, short)
        if spans is None:
            return False
        self.found.scoped.extend(
            ScopedAlias(start, end, short, qualified, False, binds) for start, end in spans
        )
        return True
