"""Who depends on what a file declares: `dependents` and `tests` of repocontext_related and
repocontext_changed, resolved through the reverse reference index (bounded reads only).

Resolution, more precise than the reference's simple-name match:
- a reference the extractor qualified through an import (`pkg.mod.Name`) only matches a
  declaration in the same language family (TS/JS, C/C++, Java/Kotlin, else the language)
  whose fully-qualified name agrees with it (one ends with the other on a dot; in Python
  also a package's re-export, `shop.Name` for `shop.orders.Name`, and an absolute import
  leaving out a folder of the path only when that folder is no package (`src`, not the
  `src.flask` that would make `json.dumps` mean flask's json); in TS/JS, whose fq names
  carry no module, the top-level declaration of the imported file, `src/orders.Name`, or
  of the file its re-exports lead to when it does not declare the name, the file named
  through a tsconfig path alias (`@/orders`) alike: js_modules);
- a TS/JS name imported from a package (`react`, no repository file) is matched by name;
- an unqualified reference matches by simple name (in Python only from a file that
  star-imports the declaring module: any other name is imported, hence qualified; in TS/JS
  only from a script without imports, or a `.d.ts` global), but only declarations that are
  module-level-ish (types, interfaces, enums, functions, other), never members: an
  unqualified `.save()` call says nothing about WHICH class's `save` it calls (so members'
  names are looked up with their qualified references only, and after the other names: a
  name every file calls cannot use up the lookup's bounds);
- what a function declares inside itself (a closure, a nested class) is no one else's
  dependency: another file cannot name it;
- a file that declares the name itself is taken to mean its own declaration, and so is a
  file whose package declares it (Go, Java, Kotlin: a package is a directory);
- a JavaScript file importing a file asked about is its dependent at file level even where
  no reference names a declaration (`const context = require('./context')`);
- `{Name}Test(s)` / `Test{Name}` types count as tests in the same language family only.
Whether one reference means one of the declarations: reference_scope.ReferenceScope.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from processors.language import language_for_path
from processors.symbols.extract import module_prefix
from processors.symbols.languages.js_ts import DEFAULT_EXPORT, module_keys, split_import_entry
from query_api.symbols.js_modules import UNQUALIFIED_MATCH_KINDS, JsModules
from query_api.symbols.python_modules import PythonModules
from query_api.symbols.reference_scope import (
    PACKAGE_IS_DIRECTORY,
    ReferenceScope,
    language_family,
)
from query_api.symbols.rust_modules import RustModules
from schemas.symbols import SymbolAt
from streams.stores.views.symbols import SymbolRow, SymbolViews

__all__ = [  # the file graph (query_api/retrieval) reads the families through this module
    "PACKAGE_IS_DIRECTORY",
    "DependentsResolver",
    "language_family",
]

MAX_RESULTS = 500  # dependents/tests per answer
MAX_ALIAS_BARRELS = 64  # files whose renamed re-exports one answer follows
TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
FILE_LEVEL = "<file>"  # the `symbol` of a reference made outside any declaration
_TEST_NAME = re.compile(
    r"(^test_.*\.py$|_test\.(py|go|rb|exs?)$|\.(test|spec)\.[cm]?[jt]sx?$"
    r"|(Tests?|Spec)\.(java|kt|cs|php|scala|swift)$|_spec\.rb$)"
)
_TEST_DIRS = frozenset({"test", "tests", "__tests__", "spec", "specs", "testing"})


def is_test_path(path: str) -> bool:
    parts = path.split("/")
    return bool(_TEST_NAME.search(parts[-1])) or any(p in _TEST_DIRS for p in parts[:-1])


CALLABLE_KINDS = frozenset({"Function", "Method"})
MODULE_KIND = "Module"  # a lookup's stand-in for a Python file imported as a name


def is_js_module(path: str) -> bool:
    return language_family(path) == "js"


def default_export(repo_id: str, path: str) -> SymbolRow:
    """A TS/JS file's default export as the target of a lookup: `default` declared in the
    file (which declaration it is, or whether one is anonymous, the views do not record)."""
    return SymbolRow(repo_id, path, DEFAULT_EXPORT, DEFAULT_EXPORT, "Other", 0, 0, "", "")


def is_python(path: str) -> bool:
    return language_family(path) == "python"


def python_module(repo_id: str, path: str) -> SymbolRow:
    """A Python file as the target of a lookup: its module (`src.click.types`, named
    `types`), which `from . import types` or `from click import types` references."""
    module = module_prefix(path, "python")
    name = module.rpartition(".")[2]
    return SymbolRow(repo_id, path, module, name, MODULE_KIND, 0, 0, "", "")


def outside_functions(declared: list[SymbolRow]) -> list[SymbolRow]:
    """The declarations another file can name: not those inside a function or method of the
    file (a closure's `wrapped_view`, a nested `def view` that a caller's `view(...)`
    parameter call would otherwise seem to reference)."""
    callables = {s.fq_name.split("(", 1)[0] for s in declared if s.kind in CALLABLE_KINDS}
    if not callables:
        return declared
    out = []
    for s in declared:
        scope = s.fq_name.split("(", 1)[0].rpartition(".")[0]
        while scope and scope not in callables:
            scope = scope.rpartition(".")[0]
        if not scope:
            out.append(s)
    return out


class DependentsResolver:
    """The dependents and tests of a set of declarations, over the symbol views."""

    def __init__(
        self, symbols: SymbolViews, read_text: Callable[[str, str], str | None] | None = None
    ) -> None:
        self.symbols = symbols
        # (repo, path) -> a file's text: tsconfig.json path aliases; without it, none
        self.read_text = read_text or (lambda _repo, _path: None)
        # repo -> (its text files' version, its Rust module layout as last read)
        self._rust_layouts: dict[str, tuple[tuple[int, int, float], RustModules]] = {}

    def rust_modules(self, repo_id: str) -> RustModules:
        """The repository's Rust module tree: the layout kept while its files stay the same
        (a lookup per file, as the file graph makes, resolves the same paths again), the
        files' imports read per answer."""
        version = self.symbols.store.text_files_version(repo_id)
        known = self._rust_layouts.get(repo_id)
        if known is None or known[0] != version:
            fresh = RustModules(self.symbols, repo_id, lambda p: self.read_text(repo_id, p))
            known = self._rust_layouts[repo_id] = (version, fresh)
        return known[1].for_another_answer()

    def dependents(
        self, repo_id: str, declared: list[SymbolRow], exclude: set[str]
    ) -> list[SymbolAt]:
        """Symbols in other files that reference what `declared` declares (see module doc);
        `exclude`: the files asked about, whose own references are not dependents.
        Names a bare reference may mean (types, functions) are looked up first and with all
        their references; members' names only with the references an import qualified."""
        by_name = self._targets(repo_id, declared, exclude)
        if not by_name:
            return []
        free = sorted(
            n for n, same in by_name.items() if any(s.kind in UNQUALIFIED_MATCH_KINDS for s in same)
        )
        members = sorted(set(by_name) - set(free))
        refs = self.symbols.references_to(repo_id, free + members, qualified_only=members)
        js = JsModules(self.symbols, repo_id, lambda path: self.read_text(repo_id, path))
        scope = ReferenceScope(self.symbols, repo_id, js, lambda: self.rust_modules(repo_id))
        scope.note_self_declared(free, exclude)
        found: dict[tuple[str, str], None] = {}
        barrels: dict[str, set[str]] = {}  # a TS/JS file re-exporting a name -> those names
        for ref in refs:
            if ref.path in exclude or not scope.means(ref, by_name.get(ref.name, [])):
                continue
            found[(ref.path, ref.symbol or FILE_LEVEL)] = None
            if not ref.symbol and is_js_module(ref.path):
                barrels.setdefault(ref.path, set()).add(ref.name)
            if len(found) >= MAX_RESULTS:
                break
        if barrels and len(found) < MAX_RESULTS:
            self._through_aliases(repo_id, barrels, by_name, exclude, scope, found)
        if len(found) < MAX_RESULTS:
            self._importers(repo_id, exclude, found)
        return [SymbolAt(symbol=sym, path=p) for p, sym in sorted(found)]

    def _targets(
        self, repo_id: str, declared: list[SymbolRow], exclude: set[str]
    ) -> dict[str, list[SymbolRow]]:
        """What a reference may name, by simple name: the declarations another file can name,
        under their re-exported names too, and stand-ins for the files asked about."""
        by_name: dict[str, list[SymbolRow]] = {}
        for s in outside_functions(declared):
            by_name.setdefault(s.name, []).append(s)
        self._add_renamed_exports(repo_id, by_name)
        self._add_rust_aliases(repo_id, exclude, by_name)
        # a TS/JS default import names no declaration (`import app from "./createApp"`
        # references `./createApp.default`) and an anonymous default export declares none:
        # the files asked about (`exclude`) stand for theirs, looked up like a member
        defaults = [default_export(repo_id, p) for p in sorted(exclude) if is_js_module(p)]
        if defaults and DEFAULT_EXPORT not in by_name:
            by_name[DEFAULT_EXPORT] = defaults
        # a Python module imported as a name (`from . import types`) is used by the import:
        # the files asked about stand for themselves, looked up like a member
        for module in (python_module(repo_id, p) for p in sorted(exclude) if is_python(p)):
            by_name.setdefault(module.name, []).append(module)
        return by_name

    def _through_aliases(
        self,
        repo_id: str,
        barrels: dict[str, set[str]],
        by_name: dict[str, list[SymbolRow]],
        exclude: set[str],
        scope: ReferenceScope,
        found: dict[tuple[str, str], None],
    ) -> None:
        """A TS/JS name re-exported under another name (classic/checks.ts: `export { _lt as
        lt } from "../core/index.js"`) is used by whoever uses the alias (`z.lt(...)`), as
        TypeScript's find-references follows it: the aliases of the names found re-exported
        are looked up too, each standing for the barrel's export."""
        aliases: dict[str, list[SymbolRow]] = {}
        for path, referenced in sorted(barrels.items())[:MAX_ALIAS_BARRELS]:
            for entry in map(split_import_entry, self.symbols.imports_of_file(repo_id, path)):
                for exported, original in entry.origins:
                    for s in by_name.get(original, []) if original in referenced else []:
                        # this re-export's module leads to `s` (a barrel re-exports many
                        # defaults: `export { default as en } from "./en.js"`, ...)
                        leads = scope.js.matches(path, f"{entry.module}.{original}", [s])
                        if leads is True:
                            alias = replace(s, path=path, fq_name=exported, name=exported)
                            aliases.setdefault(exported, []).append(alias)
        if not aliases:
            return
        names = sorted(aliases)
        for ref in self.symbols.references_to(repo_id, names, qualified_only=names):
            # only where the reference's import leads to the barrel: an alias is a common
            # name (`string`, `lt`), never matched by name alone
            if ref.path in exclude or ref.qualified is None or ref.path in barrels:
                continue
            if scope.js.matches(ref.path, ref.qualified, aliases.get(ref.name, [])) is not True:
                continue
            found[(ref.path, ref.symbol or FILE_LEVEL)] = None
            if len(found) >= MAX_RESULTS:
                return

    def _importers(
        self, repo_id: str, exclude: set[str], found: dict[tuple[str, str], None]
    ) -> None:
        """A JavaScript file importing one of the files asked about depends on it even where
        no reference names one of its declarations: koa's `const context =
        require('./context')` used as `Object.create(context)`, or through the members of a
        `module.exports = {...}` object (`proto.inspect`, no top-level name), or an import
        for its side effects. Such a file is a dependent at file level, unless a reference
        already made it one. A TypeScript file's imports name what it uses, and its
        references say which (the compiler's find-references counts no more: a test
        importing zod's `z` from src/index.ts, which only re-exports it, uses none of
        index.ts's declarations); an `export * from` names nothing (js_ts.STAR_REEXPORT)."""
        asked = sorted(p for p in exclude if is_js_module(p))
        if not asked:
            return
        js = JsModules(self.symbols, repo_id, lambda path: self.read_text(repo_id, path))
        modules = sorted({m for p in asked for m in [*module_keys(p), *js.directory_keys(p)]})
        known = {path for path, _symbol in found}
        for path in self.symbols.importers_of(repo_id, modules):
            if path in exclude or path in known or language_for_path(path) != "javascript":
                continue
            found[(path, FILE_LEVEL)] = None
            if len(found) >= MAX_RESULTS:
                return

    def _add_renamed_exports(self, repo_id: str, by_name: dict[str, list[SymbolRow]]) -> None:
        """A TS/JS declaration its file exports under another name (`export { outputOf as
        output }`) is looked up by that name too: other files import it so."""
        paths = {s.path for same in by_name.values() for s in same if is_js_module(s.path)}
        for path in sorted(paths):
            for entry in map(split_import_entry, self.symbols.imports_of_file(repo_id, path)):
                for exported, declared in entry.renamed:
                    rows = [s for s in by_name.get(declared, []) if s.path == path]
                    if rows and exported != DEFAULT_EXPORT:
                        by_name.setdefault(exported, []).extend(rows)

    def _add_rust_aliases(
        self, repo_id: str, asked: set[str], by_name: dict[str, list[SymbolRow]]
    ) -> None:
        """A Rust declaration a module above its file re-exports under another name is looked
        up by that name too (rust_modules.renamed_reexports)."""
        paths = sorted(p for p in asked if language_family(p) == "rust")
        if not paths:
            return
        rust = self.rust_modules(repo_id)
        for path in paths:
            for alias, declared in rust.renamed_reexports(path):
                rows = [s for s in by_name.get(declared, []) if s.path == path]
                if rows and alias != declared:
                    by_name.setdefault(alias, []).extend(rows)

    def imports(self, repo_id: str, path: str) -> list[str]:
        """The modules `path` imports; in TS/JS a path alias as the repository module it
        names (relative specifiers already are); in Python `from . import x` as the module x
        or, when x is no module, its package (python_modules); in Rust a use leaf as the file
        it leads to (rust_modules)."""
        modules = self.symbols.imports_of_file(repo_id, path)
        family = language_family(path)
        if family == "python" and modules:
            return PythonModules(self.symbols, repo_id).imported_modules(modules)
        if family == "rust" and modules:
            return self.rust_modules(repo_id).imported_files(path, modules)
        if family != "js" or not modules:
            return modules
        js = JsModules(self.symbols, repo_id, lambda p: self.read_text(repo_id, p))
        # `./x#*ns` imports ./x; a file's own renamed exports (`#>...`) import nothing
        named = {e.module for e in map(split_import_entry, modules) if e.module}
        return sorted({js.repository_module(path, m) for m in named})

    def tests(
        self,
        repo_id: str,
        declared: list[SymbolRow],
        dependents: Iterable[SymbolAt],
        exclude: set[str],
    ) -> list[SymbolAt]:
        """`{Name}Test(s)` / `Test{Name}` types, plus dependents that live in test files."""
        names = sorted({s.name for s in declared if s.kind in TYPE_KINDS})
        wanted = [f"{n}{suffix}" for n in names for suffix in ("Test", "Tests")]
        wanted += [f"Test{n}" for n in names]
        families = {language_family(s.path) for s in declared}
        found: dict[tuple[str, str], None] = {}
        for s in self.symbols.symbols_named(repo_id, wanted):
            if (
                s.path not in exclude
                and s.kind in TYPE_KINDS
                and language_family(s.path) in families
            ):
                found[(s.path, s.fq_name)] = None
        for d in dependents:
            if is_test_path(d.path):
                found[(d.path, d.symbol)] = None
        return [SymbolAt(symbol=sym, path=p) for p, sym in sorted(found)][:MAX_RESULTS]
