"""What extract.py asks of a language (see the package's docstring), with the answers most
languages share as defaults."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node, Tree

from processors.symbols.declaration import Captures, Found, ScopedAlias, Slicer


def _no_module_prefix(path: str) -> str:
    return ""


def _as_written(module: str, path: str) -> str:
    return module


def _path_only(path: str, local: str) -> str:
    return path


def _no_owners(imported: str) -> list[str]:
    return []


def _anywhere(node: Node) -> bool:
    return True


def _file_wide(node: Node, local: str) -> list[tuple[int, int]] | None:
    return None


def _unrepaired(src: bytes) -> bytes:
    return src


def _sorted_imports(found: Found) -> list[str]:
    return sorted(set(found.imports))


@dataclass(frozen=True, slots=True)
class LanguageRules:
    # the dotted module a file's declarations live in when it declares no package
    module_prefix: Callable[[str], str] = _no_module_prefix
    # `@import.module` as the repository module it names (a Python relative import)
    resolve_module: Callable[[str, str], str] = _as_written
    # a plain `@import` names one declaration (`import com.shop.Invoice`), not a module, a
    # package or a namespace (Python, Go, C#): the local name is bound to that declaration
    import_binds_declaration: bool = False
    # the declarations such an import reaches its name through (Java's `import a.Outer.Inner`
    # and `import static a.Outer.member` use `a.Outer`: jvm.enclosing_types), each a use of the
    # file's whether or not it writes the name
    import_owners: Callable[[str], list[str]] = _no_owners
    # a call through an imported declaration references it; not in Python, where `from
    # django.db import models` binds a module as often as a declaration
    references_through_imports: bool = True
    # ES module / CommonJS references: a member of a name bound to a whole module (`* as ns`,
    # `const m = require("m")`) is qualified by that module (references.reference_sites)
    js_modules: bool = False
    # Python's module paths: `import a.b` binds `a` (not `b`), and a call through a dotted
    # chain from an import (`click.testing.CliRunner()`, `a.b.f()` after `import a.b`) is
    # qualified by that chain (reference_sites), as an attribute chain names a module's module
    dotted_modules: bool = False
    # reads a match's `@import`, `@import.exports` and `@export` captures itself (TS/JS:
    # js_ts_imports.read_imports: specifiers resolved against the file's directory, named,
    # default and namespace bindings, re-exports) with the found so far, the file's text and
    # directory; None: `@import` names a module as written (plain imports)
    read_imports: Callable[[Found, Slicer, Captures, str], None] | None = None
    # the file's import entries once every match is read (distinct, sorted)
    imports_of: Callable[[Found], list[str]] = _sorted_imports
    # the functions whose call with a string (`@import.via`) imports a module: `require("x")`
    import_calls: frozenset[str] = frozenset()
    # the spans (start and end bytes) a plain or `from` import (a node of its statement, the
    # local name it binds) binds its name in when that is less than the file: Python's import
    # in a function's body, or in a class's body outside its methods (python.binding_scope);
    # None where it binds it file-wide
    import_scope: Callable[[Node, str], list[tuple[int, int]] | None] = _file_wide
    # the local bindings that are no import and shadow an import's name in a function or a
    # block (the file's tree, what its matches found, its source, the names its references
    # start with): TS/JS's `const path = {...}` under a file's `const path =
    # require("path")` (js_ts_locals.local_shadows); None: a name an import binds is the
    # import's everywhere
    local_shadows: Callable[[Tree, Found, bytes, set[str]], list[ScopedAlias]] | None = None
    # the reference captures (and the source) less the names before a dot that select a
    # member of a type around them, not a type (C#'s `Value.Length` in a class with a
    # property `Value`: csharp_members.without_own_members); None: all are kept
    without_own_members: Callable[[list[Node], bytes], list[Node]] | None = None
    # whether a declaration whose pattern says `@top` stands at file level (c_family)
    at_file_level: Callable[[Node], bool] = _anywhere
    # whether a declaration without a body (`@decl`) declares something of its own: not a
    # C++ friend's prototype (c_family)
    declares: Callable[[Node], bool] = _anywhere
    # a declaration written as a macro use that names what it declares among its arguments
    # (the captured name, the declaration's node, the file's text): that name, which then has
    # no parameters of its own; None where the name is no such macro (c_family.mocked_method)
    macro_declared_name: Callable[[str, Node, Slicer], str | None] | None = None
    # the source as parsed, where a construct tree-sitter cannot parse is written over; the
    # same length, so offsets and lines hold (c_family.blank_macro_lines)
    repair_source: Callable[[bytes], bytes] = _unrepaired
    # a second try for a source whose parse has an error (csharp.first_branches), the same
    # length; None: the first parse stands
    repair_on_error: Callable[[bytes], bytes] | None = None
    # `@import.tree` (a Rust use tree: the node and its text) as its leaves, each a dotted
    # path and the local name it binds ("" for none: a glob)
    import_tree: Callable[[Node, str], list[tuple[str, str]]] | None = None
    # every `a::b::` path qualifies the name after it, imported or not (Rust)
    qualified_paths: bool = False
    # such a path (the name's node, the dotted path) as written from the file's module
    path_from_file: Callable[[Node, str], str] | None = None
    # a tree's leaf (path, local name) as the import stored
    import_entry: Callable[[str, str], str] = _path_only
    # whether a reference capture (its node, the file's source and import aliases) selects a
    # member of a value (Go's `c.Params`, `x.v.New()`), which no file names bare: not kept,
    # else the resolver would match it by its simple name; None: every reference is kept
    member_selection: Callable[[Node, bytes, dict[str, str]], bool] | None = None
    # whether a value capture (`@ref.value`: its node, the source, the import aliases) is
    # read through an import (Python's `click.Abort`, not `self.abort`); None: none is kept
    imported_member: Callable[[Node, bytes, dict[str, str]], bool] | None = None
    # the names a file reads bare that no local binding or import names (the tree, the
    # source, the import aliases): Go's package-level vars and consts, which are neither
    # called nor types (go_locals.package_reads); None: only the query's captures are kept
    package_reads: Callable[[Tree, bytes, dict[str, str]], list[Node]] | None = None


DEFAULT = LanguageRules()
