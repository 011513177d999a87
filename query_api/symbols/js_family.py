"""TypeScript/JavaScript's rules for the dependents resolver (families.FamilyRules): a
qualified reference names the declaration its import leads to (js_modules, js_specifiers); an
unqualified one only from a script or a declaration file's global; a default import names
the file's default export; a name re-exported under another name is used by the alias's
callers; a JavaScript file importing a file depends on it. The pure rules (extensions, index
files, path aliases, packages) are in processors/symbols/languages/js_ts*.py."""

from __future__ import annotations

from collections.abc import Callable

from processors.language import language_for_path
from processors.structural import GENERATED_SUFFIXES, is_build_output
from processors.symbols.languages.js_ts import (
    DEFAULT_EXPORT,
    REEXPORT_MARK,
    module_keys,
    split_import_entry,
    star_reexport,
)
from query_api.symbols.families import (
    FILE_LEVEL,
    ByName,
    FamilyRules,
    Found,
    Imports,
    language_family,
)
from query_api.symbols.js_default_export import default_export_name
from query_api.symbols.js_modules import JsModules
from streams.stores.views.symbols import ReferenceRow, SymbolRow, SymbolViews

MAX_ALIAS_BARRELS = 64  # files whose renamed re-exports one answer follows
MAX_BARRELS_ASKED = 64  # files asked about read for re-exports (changed asks about many)
RE_EXPORT_KIND = "ReExport"  # a lookup's stand-in for a name a barrel re-exports by name


def default_export(repo_id: str, path: str) -> SymbolRow:
    """A TS/JS file's default export as the target of a lookup: `default` declared in the
    file (which declaration it is, or whether one is anonymous, the views do not record)."""
    return SymbolRow(repo_id, path, DEFAULT_EXPORT, DEFAULT_EXPORT, "Other", 0, 0, "", "")


class JsFamily(FamilyRules):
    """TS/JS for one answer, over the module resolution of js_modules."""

    def __init__(
        self,
        symbols: SymbolViews,
        repo_id: str,
        read_text: Callable[[str], str | None],
        modules: JsModules | None = None,
    ) -> None:
        """`modules`: module reads shared with other answers over the same views, its
        bounds begun afresh for this one; else this answer's own."""
        super().__init__("js")
        self.symbols = symbols
        self.repo_id = repo_id
        self.read_text = read_text
        if modules is None:
            modules = JsModules(symbols, repo_id, read_text)
        else:
            modules.new_answer()
        self.modules = modules
        self._barrels: dict[str, set[str]] = {}  # a file re-exporting a name -> those names

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool | None:
        if ref.qualified is None:
            return None
        # None: a package's name (`react`), matched by name
        return self.modules.matches(ref.path, ref.qualified, targets)

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """An ES or CommonJS module names what other modules declare through its imports, so
        its unqualified `query.isStale()` or `render()` is its own, a global's or a method's;
        only a script (no imports, no exports: a module that exports and imports nothing
        records an empty `#>` entry) or a declaration file's global (`.d.ts`) shares names."""
        if ref.qualified is not None:
            return True
        if _is_bundle(ref.path):
            # a bundle inlines its own copy of each module it holds: its bare names (an
            # inlined `normalizeHeader`, a minified `s`) are its own, never another file's
            return False
        return not imports_of(ref.path) or any(s.path.endswith(".d.ts") for s in targets)

    def imported_modules(self, path: str, modules: list[str]) -> list[str]:
        """A path alias as the repository module it names (relative specifiers already are);
        `./x#*ns` imports ./x; a file's own renamed exports (`#>...`) import nothing."""
        named = {e.module for e in map(split_import_entry, modules) if e.module}
        return sorted({self.modules.repository_module(path, m) for m in named})

    def add_aliases(self, asked: set[str], by_name: ByName) -> None:
        """A declaration its file exports under another name (`export { outputOf as output
        }`) is looked up by that name too: other files import it so."""
        paths = {s.path for same in by_name.values() for s in same if _is_js(s.path)}
        for path in sorted(paths):
            for entry in map(split_import_entry, self.symbols.imports_of_file(self.repo_id, path)):
                for exported, declared in entry.renamed:
                    rows = [s for s in by_name.get(declared, []) if s.path == path]
                    if rows and exported != DEFAULT_EXPORT:
                        by_name.setdefault(exported, []).extend(rows)

    def add_stand_ins(self, asked: list[str], by_name: ByName) -> None:
        """A default import names no declaration (`import app from "./createApp"` references
        `./createApp.default`) and an anonymous default export declares none: the files
        asked about stand for theirs, looked up like a member."""
        defaults = [default_export(self.repo_id, p) for p in asked if _is_js(p)]
        if defaults and DEFAULT_EXPORT not in by_name:
            by_name[DEFAULT_EXPORT] = defaults
        for path in [p for p in asked if _is_js(p)][:MAX_BARRELS_ASKED]:
            self._add_re_exported(path, by_name)

    def _add_re_exported(self, path: str, by_name: ByName) -> None:
        """A name a barrel re-exports by name (`export type { ElysiaAdapter } from
        './types'`) is the barrel's too: another file importing it from the barrel
        (`src/adapter.ElysiaAdapter`, elysia's src/types.ts, or re-exporting it again:
        src/index.ts) uses the barrel. The barrel stands for it, looked up like a member
        (only a reference its import qualified): its declaration is another file's."""
        for entry in map(split_import_entry, self.symbols.imports_of_file(self.repo_id, path)):
            for name in sorted(entry.names or ()):
                if name != DEFAULT_EXPORT:
                    stand_in = SymbolRow(
                        self.repo_id, path, name, name, RE_EXPORT_KIND, 0, 0, "", ""
                    )
                    by_name.setdefault(name, []).append(stand_in)

    def narrow_stand_ins(self, by_name: ByName, declared: list[SymbolRow]) -> None:
        """A file's default export stands for a top-level declaration of it only where the
        module does not name its default export as another (`module.exports = class
        Application` is not koa's private `respond`: js_default_export)."""
        defaults = by_name.get(DEFAULT_EXPORT)
        if not defaults:
            return
        kept = []
        for stand_in in defaults:
            names = {s.name for s in declared if s.path == stand_in.path and "." not in s.fq_name}
            exported = default_export_name(self.read_text(stand_in.path) or "") if names else None
            if exported is None or exported in names:
                kept.append(stand_in)
        if kept:
            by_name[DEFAULT_EXPORT] = kept
        else:
            del by_name[DEFAULT_EXPORT]

    def note_dependent(self, ref: ReferenceRow) -> None:
        if not ref.symbol and _is_js(ref.path):  # a file-level reference: maybe a re-export
            self._barrels.setdefault(ref.path, set()).add(ref.name)

    def more_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        if self._barrels:
            self._through_aliases(exclude, by_name, found)

    def file_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """The JavaScript files importing a file asked about as a whole (_importers): they
        depend on the file, not on a declaration of it. Counted for the users of one
        declaration too, they made every test requiring koa's application a user of its
        private `respond` and of `Application.handleRequest` (`what calls respond` ranked
        five test files, for `it('should respond', ...)`, above lib/application.js)."""
        self._importers(exclude, found)

    def _through_aliases(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """A name re-exported under another name (classic/checks.ts: `export { _lt as lt }
        from "../core/index.js"`) is used by whoever uses the alias (`z.lt(...)`), as
        TypeScript's find-references follows it: the aliases of the names found re-exported
        are looked up too, each standing for the barrel's export."""
        aliases: ByName = {}
        for path, referenced in sorted(self._barrels.items())[:MAX_ALIAS_BARRELS]:
            for entry in map(split_import_entry, self.symbols.imports_of_file(self.repo_id, path)):
                for exported, original in entry.origins:
                    for s in by_name.get(original, []) if original in referenced else []:
                        # this re-export's module leads to `s` (a barrel re-exports many
                        # defaults: `export { default as en } from "./en.js"`, ...)
                        leads = self.modules.matches(path, f"{entry.module}.{original}", [s])
                        if leads is True:
                            alias = s._replace(path=path, fq_name=exported, name=exported)
                            aliases.setdefault(exported, []).append(alias)
        if not aliases:
            return
        names = sorted(aliases)
        for ref in self.symbols.references_to(self.repo_id, names, qualified_only=names):
            # only where the reference's import leads to the barrel: an alias is a common
            # name (`string`, `lt`), never matched by name alone
            if ref.path in exclude or ref.qualified is None or ref.path in self._barrels:
                continue
            targets = aliases.get(ref.name, [])
            if self.modules.matches(ref.path, ref.qualified, targets) is not True:
                continue
            found.add(ref.path, ref.symbol or FILE_LEVEL)
            if found.full:
                return

    def _importers(self, exclude: set[str], found: Found) -> None:
        """A JavaScript file importing one of the files asked about depends on it even where
        no reference names one of its declarations: koa's `const context =
        require('./context')` used as `Object.create(context)`, or through the members of a
        `module.exports = {...}` object (`proto.inspect`, no top-level name), or an import
        for its side effects. Such a file is a dependent at file level, unless a reference
        already made it one. A TypeScript file's imports name what it uses, and its
        references say which (the compiler's find-references counts no more), so it is one
        only of a barrel: a file that re-exports (`export * from`, `export { a } from`)
        declares little or nothing its importers' references name, though they depend on
        it (what they use is credited to the declaring file as well). The importers are
        found by the specifiers that name the file: relative ones as the extractor resolved
        them, its folder's package.json entry, a tsconfig path alias (`zustand/middleware`).
        An `export * from` names nothing (js_ts.STAR_REEXPORT)."""
        asked = sorted(p for p in exclude if _is_js(p))
        if not asked:
            return
        js = JsModules(self.symbols, self.repo_id, self.read_text)  # a budget of its own
        barrels = {p for p in asked[:MAX_BARRELS_ASKED] if self._re_exports(p)}
        for group, any_language in ((sorted(barrels), True), (asked, False)):
            modules = sorted({m for p in group for m in _specifiers_of(js, p, any_language)})
            for path in self.symbols.importers_of(self.repo_id, modules) if modules else ():
                if path in exclude or path in found:
                    continue
                if any_language or language_for_path(path) == "javascript":
                    found.add(path, FILE_LEVEL)
                if found.full:
                    return

    def _re_exports(self, path: str) -> bool:
        """Whether `path` hands on another module's exports (`export ... from`)."""
        return any(REEXPORT_MARK in e for e in self.symbols.imports_of_file(self.repo_id, path))


def _specifiers_of(js: JsModules, path: str, star: bool) -> list[str]:
    """The import entries that name `path`: its module keys, its folders' package.json
    entries, the path aliases mapped to it (js_specifiers.alias_specifiers) and its
    package's name with a subpath exported to it (package_specifiers), its module in a build
    folder an import of the build names (built_specifiers: `dist/readonly/index`); with
    `star`, a barrel's, also another barrel's `export * from` it (a named re-export's entry
    lists the names: js_ts.named_reexport)."""
    keys = module_keys(path)
    named = [
        *keys,
        *js.directory_keys(path),
        *js.alias_specifiers(path, keys),
        *js.package_specifiers(path, keys),
        *js.built_specifiers(keys),
    ]
    return [*named, *(star_reexport(m) for m in named if star)]


def _is_bundle(path: str) -> bool:
    """A bundler's output (`dist/axios.js`) or a minified file (`axios.min.js`): a script by
    its imports, which names nothing of the modules it was built from."""
    return is_build_output(path) or path.lower().endswith(GENERATED_SUFFIXES)


def _is_js(path: str) -> bool:
    return language_family(path) == "js"
