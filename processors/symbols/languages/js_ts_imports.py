"""TypeScript and JavaScript: how the extractor reads an import, a re-export or an export
statement (`@import`, `@import.exports`, `@export`: es_modules.scm, javascript.scm) into the
file's import entries and local bindings. The entries' format and the specifiers' resolution
are in js_ts.py."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from tree_sitter import Node

from processors.symbols.declaration import Captures, Found, ScopedAlias, Slicer, clean_name
from processors.symbols.languages.base import LanguageRules
from processors.symbols.languages.js_ts import (
    DEFAULT_EXPORT,
    STAR_REEXPORT,
    declared_member,
    is_relative,
    local_exports,
    named_reexport,
    namespace_import,
    resolve_in,
    star_reexport,
)
from processors.symbols.languages.js_ts_locals import FUNCTIONS, local_shadows
from processors.symbols.references import REEXPORT_KEY
from processors.symbols.signatures import _node_text


def read_imports(found: Found, text: Slicer, caps: Captures, directory: str) -> None:
    """One match's imports, re-exports and exports (LanguageRules.read_imports)."""
    if "export" in caps:
        found.exports = True
    if "import.exports" in caps:
        renamed = renamed_exports(text, caps["import.exports"][0])
        if renamed:
            found.imports.append(local_exports(renamed))
    if "import" in caps:
        _read_import(found, text, caps, directory)


def imports_of(found: Found) -> list[str]:
    """The file's import entries; an ES module importing nothing has an empty entry of its
    own exports, so that the dependents resolver does not take it for a script whose names
    are globals (query_api.symbols.js_family)."""
    imports = sorted(set(found.imports))
    if found.exports and not imports:
        imports = [local_exports(())]
    return imports


def _read_import(found: Found, text: Slicer, caps: Captures, directory: str) -> None:
    names_cap = caps.get("import.names")
    alias_cap = caps.get("import.alias")
    default_cap = caps.get("import.default")
    written_names = _node_text(text, names_cap[0]) if names_cap else ""
    written_alias = _node_text(text, alias_cap[0]) if alias_cap else ""
    member_cap = caps.get("import.member")
    if member_cap and written_alias:  # `const f = require("./m").g` binds what `{ g: f }` would
        written_names = f"{{ {_node_text(text, member_cap[0])}: {written_alias} }}"
        written_alias = ""
    module, pairs, namespace = js_import(
        _node_text(text, caps["import"][0]),
        written_names,
        written_alias,
        directory,
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
            (f"{REEXPORT_KEY}{exported}", f"{module}.{name}") for name, exported in names
        )
    elif namespace and not names_cap and not default_cap and "import.via" not in caps:
        found.imports.append(namespace_import(module, namespace))  # `import * as ns`
    else:
        found.imports.append(module)
    bound_to = alias_cap or names_cap
    if not bound_to and _loads_whole_module(caps):
        found.bound[f"{DYNAMIC_IMPORT_KEY}{module}"] = f"{module}.{DEFAULT_EXPORT}"
    scope = binding_scope(bound_to[0]) if bound_to and "import.via" in caps else None
    if scope is not None:  # `const m = require("m")` in a function: its names are its own
        start, end = scope
        found.scoped.extend(
            ScopedAlias(start, end, local, qualified, local == namespace, local != namespace)
            for local, qualified in pairs
        )
        return
    if pairs:
        found.aliases.update(pairs)
        found.bound.update(pair for pair in pairs if pair[0] != namespace)
    if namespace:
        found.namespaces.add(namespace)


# the key `bound` holds a module a dynamic import loads unbound under: no local name
DYNAMIC_IMPORT_KEY = "import() "


def _loads_whole_module(caps: Captures) -> bool:
    """Whether this is a dynamic `import("./x")` whose module is taken whole, as a value
    (`.use(import("./plugin"))`, `() => import("./cmd").then((r) => r.default)`, a
    promise kept in a name): the file uses the module's default export, though no name of
    it is written. Bound after an await (`const { a } = await import(...)`), its names are
    its references (the pattern that binds them reads it)."""
    via = caps.get("import.via")
    if not via or via[0].type != "import":  # CommonJS `require`: a file-level import
        return False
    call = via[0].parent
    awaited = call.parent if call is not None else None
    if awaited is None or awaited.type != "await_expression":
        return True
    return awaited.parent is None or awaited.parent.type != "variable_declarator"


def binding_scope(name: Node) -> tuple[int, int] | None:
    """The span a CommonJS binding (`name`: the bound identifier or pattern of `const m =
    require("m")`) is visible in, as the language scopes it: a `const` or `let` in its block
    (a statement block, a `for`'s, a `switch`'s body), a `var` in its function; None at
    module level, where it qualifies the whole file."""
    declarator = name.parent
    declaration = declarator.parent if declarator is not None else None
    if declaration is None:
        return None
    if declaration.type == "variable_declaration":  # `var`: the function's, hoisted
        scope = declaration.parent
        while scope is not None and scope.type not in FUNCTIONS:
            scope = scope.parent
    else:
        scope = declaration.parent
        if scope is not None and scope.type in ("export_statement", "switch_case"):
            scope = scope.parent
    if scope is None or scope.type == "program":
        return None
    return scope.start_byte, scope.end_byte


_NAMED_IMPORT = re.compile(
    r"(?:\btype\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*)|\s*:\s*([A-Za-z_$][\w$]*))?"
)
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def named_imports(text: str) -> list[tuple[str, str]]:
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
def js_import(
    specifier: str, names: str, alias: str, directory: str, default: str = ""
) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """A TS/JS import statement (or `require`) in `directory`: its module, a relative specifier
    resolved to a repository path, and the (local name, qualified name) pairs it binds, named
    imports and a namespace. A non-relative specifier, a package's (`rxjs`) or a path alias
    (`@/orders`, tsconfig `paths`), qualifies as written: the dependents resolver maps an
    alias to its file and matches a package's names by name. A relative one that leaves the
    repository qualifies nothing. The third value is the local name bound to the whole module
    (`* as ns`, `const m = require("m")`), "" when none."""
    raw = clean_name(specifier, ".")
    if is_relative(raw):
        module = resolve_in(raw, directory)
        if module == raw:
            return module, (), ""
    else:
        module = raw
    pairs = [(short, f"{module}.{name}") for name, short in named_imports(names)] if names else []
    if default:  # `import Button from "./Button"`: the module's default export, whatever
        pairs.append((default, f"{module}.{DEFAULT_EXPORT}"))  # name it is declared under
    namespace = clean_name(alias, ".") if alias else ""
    if namespace:
        pairs.append((namespace, module))
    return module, tuple(pairs), namespace


def renamed_exports(text: Callable[[int, int], str], clause: Node) -> list[tuple[str, str]]:
    """The (exported, declared) names of a local `export { a as b, c }` clause that differ."""
    out = []
    for spec in clause.named_children:
        name = spec.child_by_field_name("name")
        alias = spec.child_by_field_name("alias")
        if spec.type == "export_specifier" and name is not None and alias is not None:
            exported, declared = _node_text(text, alias), _node_text(text, name)
            if exported != declared:
                out.append((exported, declared))
    return out


def reexported(
    text: Callable[[int, int], str], specifier: Node
) -> tuple[str, list[tuple[str, str]]] | None:
    """What an `export ... from "x"` statement hands on (`specifier` is its `x`): the
    namespace of `export * as ns`, or the (name, name as exported) pairs of `export { a, b
    as c }`; (STAR_REEXPORT, []) for `export * from "x"`, None for an import."""
    statement = specifier.parent.parent if specifier.parent is not None else None
    if statement is None or statement.type != "export_statement":
        return None
    for child in statement.named_children:
        if child.type == "namespace_export" and child.named_child_count:
            return _node_text(text, child.named_children[0]), []
        if child.type == "export_clause":
            names = []
            for spec in child.named_children:
                name = spec.child_by_field_name("name")
                alias = spec.child_by_field_name("alias")
                if spec.type == "export_specifier" and name is not None:
                    original = _node_text(text, name)
                    names.append((original, _node_text(text, alias) if alias else original))
            return "", names
    return STAR_REEXPORT, []


_JS = LanguageRules(
    js_modules=True,
    import_calls=frozenset({"require", "import"}),
    read_imports=read_imports,
    imports_of=imports_of,
    declares=declared_member,
    local_shadows=local_shadows,
)
RULES = {"typescript": _JS, "javascript": _JS}
