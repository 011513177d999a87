"""Python's import rules for dependents resolution: what a qualified name (`flask.app.Flask`,
resolved through the file's imports by the extractor) may mean among declarations keyed by
their files' paths (`src.flask.app.Flask`), and which unqualified names a star import brings.

- an absolute import may leave out the leading folders of the path that are no package (a
  source folder, `src`), never a package: `json.dumps` (the standard library's) is not
  `src.flask.json.dumps`, since src/flask/__init__.py makes that `flask.json`;
- a package re-exports a module-level declaration of one of its modules: `from shop import
  OrderService` (shop/__init__.py: `from .orders import OrderService`) is
  `shop.orders.OrderService`; never a member (`click.command` is not `Context.command`);
- an unqualified name can only come from `from <module> import *`: every other name from
  another module is imported by name, and so qualified;
- `from . import types` imports the module `types` when it is a file, else a name the
  package declares (the extractor records `<package>.types`; `imported_modules` decides),
  and so the files asked about stand for themselves as modules.
Which folders are packages is read from the views (one point read per folder per answer).
"""

from __future__ import annotations

from processors.symbols.extract import module_prefix
from processors.symbols.languages.python import (
    module_files,
    names_declaration,
    prefix_before,
    skipped_prefix,
)
from query_api.symbols.families import (
    FILE_LEVEL,
    ByName,
    FamilyRules,
    Found,
    Imports,
    language_family,
)
from streams.stores.views.symbols import ReferenceRow, SymbolRow, SymbolViews

_INITS = frozenset({"__init__.py", "__init__.pyi"})
MAX_REEXPORTERS = 50  # modules whose imports of the names are looked up as names of their own
MODULE_KIND = "Module"  # a lookup's stand-in for a Python file imported as a name


def python_module(repo_id: str, path: str) -> SymbolRow:
    """A Python file as the target of a lookup: its module (`src.click.types`, named
    `types`), which `from . import types` or `from click import types` references."""
    module = module_prefix(path, "python")
    name = module.rpartition(".")[2]
    return SymbolRow(repo_id, path, module, name, MODULE_KIND, 0, 0, "", "")


class PythonModules(FamilyRules):
    """Python's rules for one answer, with which folders are packages read once each."""

    def __init__(self, symbols: SymbolViews, repo_id: str) -> None:
        super().__init__("python")
        self.symbols = symbols
        self.repo_id = repo_id
        self._roots: dict[str, bool] = {}  # fq prefix -> whether it is off the import path
        # module (not package) files found to import one of the names: path -> qualified names
        self._imported_by: dict[str, set[str]] = {}

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool | None:
        if ref.qualified is None:
            return None
        return any(
            language_family(s.path) == self.family and self.matches(ref.qualified, s)
            for s in targets
        )

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        return self.star_imported(imports_of(ref.path), targets)

    def add_file_stand_ins(self, asked: list[str], by_name: ByName) -> None:
        """A module imported as a name (`from . import types`) is used by the import: the
        files asked about stand for themselves, looked up like a member."""
        for module in (
            python_module(self.repo_id, p) for p in asked if language_family(p) == "python"
        ):
            by_name.setdefault(module.name, []).append(module)

    def note_dependent(self, ref: ReferenceRow) -> None:
        if (
            ref.qualified is not None
            and ref.path.rpartition("/")[2] not in _INITS
            and language_family(ref.path) == self.family
        ):
            self._imported_by.setdefault(ref.path, set()).add(ref.qualified)

    def more_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        if self._imported_by:
            self._through_modules(exclude, by_name, found)

    def file_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        self._importers(exclude, found)

    def _through_modules(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """A name a module imports is that module's name too: requests' utils.py imports
        `to_native_string` from _internal_utils.py, and tests/test_utils.py imports it `from
        requests.utils`; a package's re-export is matched already (names_declaration), a
        module's was not. Each module found to import one of the names (a first pass's
        answer, at most MAX_REEXPORTERS of them) stands for it, unless it declares that
        name itself."""
        aliases: dict[str, list[SymbolRow]] = {}
        for path, qualifieds in sorted(self._imported_by.items())[:MAX_REEXPORTERS]:
            module = module_prefix(path, self.family)
            for qualified in sorted(qualifieds):
                name = qualified.rpartition(".")[2]
                if any(
                    s.kind != MODULE_KIND and self.matches(qualified, s)
                    for s in by_name.get(name, [])
                ):
                    alias = SymbolRow(
                        self.repo_id, path, f"{module}.{name}", name, "", 0, 0, "", ""
                    )
                    aliases.setdefault(name, []).append(alias)
        if not aliases:
            return
        names = sorted(aliases)
        own = {(s.path, s.name) for s in self.symbols.symbols_named(self.repo_id, names)}
        for ref in self.symbols.references_to(self.repo_id, names, qualified_only=names):
            if ref.path in exclude or ref.qualified is None:
                continue
            if any(
                ref.path != alias.path
                and (alias.path, ref.name) not in own
                and self.matches(ref.qualified, alias)
                for alias in aliases.get(ref.name, [])
            ):
                found.add(ref.path, ref.symbol or FILE_LEVEL)
                if found.full:
                    return

    def _importers(self, exclude: set[str], found: Found) -> None:
        """A Python file importing a module asked about depends on it at file level even
        where no reference names one of its declarations: `from requests.compat import
        urljoin` names what compat.py itself imports (a compatibility module re-exports the
        standard library's names), an import for its side effects. A package's __init__.py
        too: `import requests` or `from flask import Flask` runs it and reads what it
        re-exports, though the re-exported names are matched with the modules declaring them
        (an __init__.py that only re-exports had no dependents at all)."""
        modules: set[str] = set()
        for path in sorted(exclude):
            if language_family(path) != self.family:
                continue
            full = module_prefix(path, "python")
            modules.add(full)
            parts = full.split(".")
            for cut in range(1, len(parts)):  # as an absolute import names it (`src` left out)
                if not self.importable(".".join(parts[:cut])):
                    break
                modules.add(".".join(parts[cut:]))
        if not modules:
            return
        for path in self.symbols.importers_of(self.repo_id, sorted(modules)):
            if path in exclude or path in found or language_family(path) != self.family:
                continue
            found.add(path, FILE_LEVEL)
            if found.full:
                return

    def matches(self, qualified: str, target: SymbolRow) -> bool:
        """Whether the qualified reference `qualified` means `target` (see module doc)."""
        module = module_prefix(target.path, "python")
        return names_declaration(qualified, target.fq_name, module) and self.importable(
            skipped_prefix(qualified, target.fq_name)
        )

    def importable(self, prefix: str) -> bool:
        """Whether an absolute import can skip `prefix`: only when it is folders above the
        top package, none of them a package nor a module (see module doc): `import chardet`
        is no `src.requests.compat.chardet`, whose prefix `src.requests` is a package and
        `src.requests.compat` a module."""
        if not prefix:
            return True
        if prefix not in self._roots:
            parts = prefix.split(".")
            folders = ["/".join(parts[: i + 1]) for i in range(len(parts))]
            wanted = [f"{f}/__init__.py" for f in folders] + [f"{folders[-1]}.py"]
            self._roots[prefix] = not self.symbols.indexed_paths(self.repo_id, wanted)
        return self._roots[prefix]

    def star_imported(self, imports: list[str], targets: list[SymbolRow]) -> bool:
        """Whether a file importing `imports` may use one of `targets` unqualified: only
        through `from <their module> import *` (or their package's); an unqualified `load(f)`
        or `s.loads()` calls a parameter, a local or a method, not flask.json's `load`."""
        modules = [module_prefix(s.path, "python") for s in targets]
        for imported in imports:
            if not imported.endswith(".*"):
                continue
            for module in modules:  # `flask` names src/flask/..., `json` not src/flask/json
                skipped = prefix_before(module, imported[:-2].lstrip("."))
                if skipped is not None and self.importable(skipped):
                    return True
        return False

    def imported_modules(self, path: str, imports: list[str]) -> list[str]:
        """The modules a file's imports name: `pkg.types` of `from . import types` or `from
        pkg import types` as it is when pkg/types.py (or a package pkg/types/) is indexed,
        at the root or below src/, else `pkg`, whose __init__.py declares the name; a name
        another package declares (`typing.cast` of `from typing import cast`, recorded beside
        `typing`) is left out. One point read for all of them."""
        entries = set(imports)
        named = [m for m in imports if "." in m and not m.endswith(".*")]
        paths = {m: _files_of(m) for m in named}
        parents = {m: _files_of(m.rpartition(".")[0]) for m in named}
        wanted = [p for group in (paths, parents) for ps in group.values() for p in ps]
        indexed = self.symbols.indexed_paths(self.repo_id, wanted) if wanted else set()
        out = []
        for module in imports:
            no_file = module in paths and indexed.isdisjoint(paths[module])
            parent = module.rpartition(".")[0]
            if no_file and not indexed.isdisjoint(parents[module]):
                module = parent
            elif no_file and parent in entries:  # a name imported from another package
                continue
            out.append(module)
        return sorted(set(out))


def _files_of(module: str) -> list[str]:
    """The files a module of the repository may be, at the root or in a src/ folder (`from
    pipx import paths` in pipx's src/pipx/main.py and tests/ alike)."""
    files = module_files(module)
    return [*files, *(f"src/{f}" for f in files)]
