"""Rust paths as files, for the dependents resolver: which file a use leaf or a reference
the extractor qualified (`crate.flags.hiargs.HiArgs`, `grep_matcher.Matcher.find`) names,
and which declaration of it, following a crate root's re-exports (`pub use`).

A path starts at an anchor: `crate` (the file's crate root), `self`/`super` (the file's
module, its parent), a crate by its package name (the file's package itself or a path
dependency in its Cargo.toml, `grep-matcher` written `grep_matcher`), or a child module of
the file's own. From there it descends through child modules while a file for the next
segment exists (languages/rust: `a.rs` or `a/mod.rs` in the module's folder); what is left
names a declaration of the last module's file (`HiArgs`, `Searcher.new`). A path whose
anchor is none of these (`std`, `regex`) names nothing in the repository.

Everything is read from the views with point reads, each fact once per answer.
"""

from __future__ import annotations

import copy
import posixpath
from collections.abc import Callable
from typing import Any

from processors.symbols.languages.rust import (
    ALIAS_MARK,
    CRATE_ROOT_NAMES,
    DEPENDENCY_TABLES,
    child_candidates,
    crate_ident,
    declared_library,
    declared_roots,
    manifest_path,
    module_dir,
    parent_candidates,
    parent_dir,
    parsed_manifest,
)
from streams.stores.views.symbols import SymbolRow, SymbolViews

MAX_REEXPORT_HOPS = 4  # `pub use` chains followed from one path
NAMESPACE_KIND = "Namespace"  # a `mod x;` or `mod x { }` declaration

Resolved = tuple[str, tuple[str, ...]]  # (the module's file, the path left inside it)


class RustModules:
    """One answer's view of a repository's Rust module tree (see the module doc)."""

    def __init__(
        self, symbols: SymbolViews, repo_id: str, read_text: Callable[[str], str | None]
    ) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self.read_text = read_text
        self._exists: dict[str, bool] = {}
        self._manifests: dict[str, dict[str, Any] | None] = {}
        self._roots: dict[str, str | None] = {}  # a file -> its crate root
        self._crates: dict[str, dict[str, str]] = {}  # a package folder -> ident -> root
        self._imports: dict[str, list[str]] = {}
        self._resolved: dict[tuple[str, str], Resolved | None] = {}
        self._destinations: dict[tuple[Resolved, int], frozenset[tuple[str, str]]] = {}

    def for_another_answer(self) -> RustModules:
        """The same layout facts (files, manifests, crate roots, where paths lead), with
        the facts of files' contents (imports, re-exports) read again: the layout may be
        kept while the repository's files stay the same, imports are derived later."""
        again = copy.copy(self)
        again._imports = {}
        again._destinations = {}
        return again

    # -- facts read from the views ---------------------------------------------------------

    def _first_existing(self, candidates: list[str]) -> str | None:
        unknown = [c for c in candidates if c not in self._exists]
        if unknown:
            found = self.symbols.indexed_paths(self.repo_id, unknown)
            self._exists.update((c, c in found) for c in unknown)
        return next((c for c in candidates if self._exists[c]), None)

    def _manifest(self, folder: str) -> dict[str, Any] | None:
        """The parsed Cargo.toml in `folder`, None when there is none or it does not parse."""
        if folder not in self._manifests:
            path = posixpath.join(folder, "Cargo.toml")
            text = self.read_text(path) if self._first_existing([path]) else None
            self._manifests[folder] = parsed_manifest(text) if text is not None else None
        return self._manifests[folder]

    def imports_of(self, path: str) -> list[str]:
        if path not in self._imports:
            self._imports[path] = self.symbols.imports_of_file(self.repo_id, path)
        return self._imports[path]

    # -- crates ------------------------------------------------------------------------------

    def _package_folder(self, path: str) -> str | None:
        folder = posixpath.dirname(path)
        while True:
            if self._manifest(folder) is not None:
                return folder
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def crate_root(self, path: str) -> str | None:
        """The root file of the crate `path` belongs to: the nearest lib.rs/main.rs at or
        above its folder (within its package), or a target Cargo.toml names there."""
        if path not in self._roots:
            self._roots[path] = self._find_root(path)
        return self._roots[path]

    def _find_root(self, path: str) -> str | None:
        package = self._package_folder(path)
        declared = self._declared_roots(package) if package is not None else []
        if path in declared:
            return path
        folder = posixpath.dirname(path)
        while True:
            inside = [r for r in declared if posixpath.dirname(r) == folder]
            named = [posixpath.join(folder, name) for name in CRATE_ROOT_NAMES]
            found = self._first_existing(named + inside)
            if found is not None:
                return found
            if not folder or folder == package:
                return None
            folder = posixpath.dirname(folder)

    def _declared_roots(self, package: str) -> list[str]:
        """The crate roots Cargo.toml names by path: `[lib]`, `[[bin]]`, `[[test]]`, ..."""
        return declared_roots(self._manifest(package) or {}, package)

    def _library_root(self, package: str) -> str | None:
        declared = declared_library(self._manifest(package) or {}, package)
        if declared is not None:
            return declared
        return self._first_existing([posixpath.join(package, "src", "lib.rs")])

    def crates_seen_from(self, path: str) -> dict[str, str]:
        """The crates code in `path` names by package (ident -> root file): its own package's
        library and the path dependencies its Cargo.toml lists (a `workspace = true` one
        through the workspace's `[workspace.dependencies]`)."""
        package = self._package_folder(path)
        if package is None:
            return {}
        if package not in self._crates:
            self._crates[package] = self._crates_of(package)
        return self._crates[package]

    def _crates_of(self, package: str) -> dict[str, str]:
        manifest = self._manifest(package) or {}
        out: dict[str, str] = {}
        own = manifest.get("package", {}).get("name")
        root = self._library_root(package)
        if isinstance(own, str) and root is not None:
            out[crate_ident(own)] = root
        for table in DEPENDENCY_TABLES:
            for name, spec in (manifest.get(table) or {}).items():
                # a renamed dependency (`foo = { package = "bar", ... }`) is `foo` in code
                folder = self._dependency_folder(package, name, spec)
                dep_root = self._library_root(folder) if folder is not None else None
                if dep_root is not None:
                    out.setdefault(crate_ident(name), dep_root)
        return out

    def _dependency_folder(self, package: str, name: str, spec: object) -> str | None:
        if not isinstance(spec, dict):
            return None
        if isinstance(spec.get("path"), str):
            return manifest_path(package, spec["path"])
        if spec.get("workspace") is not True:
            return None
        # `name = { workspace = true }`: the nearest `[workspace.dependencies]` at or above
        # the package names it
        folder: str | None = package
        while folder is not None:
            workspace = (self._manifest(folder) or {}).get("workspace")
            if isinstance(workspace, dict):
                shared = (workspace.get("dependencies") or {}).get(name)
                if isinstance(shared, dict) and isinstance(shared.get("path"), str):
                    return manifest_path(folder, shared["path"])
                return None
            folder = posixpath.dirname(folder) if folder else None
        return None

    # -- modules ----------------------------------------------------------------------------

    def child(self, module_file: str, name: str) -> str | None:
        moddir = module_dir(module_file, self.crate_root(module_file) == module_file)
        return self._first_existing(child_candidates(moddir, name))

    def parent(self, module_file: str) -> str | None:
        if self.crate_root(module_file) == module_file:
            return None
        pdir = parent_dir(module_file)
        root = self.crate_root(module_file)
        found = self._first_existing(parent_candidates(pdir))
        if found is None and root is not None and posixpath.dirname(root) == pdir:
            return root
        return found

    def resolve(self, importer: str, dotted: str) -> Resolved | None:
        """The module file a path leads to and what is left of it (see the module doc)."""
        key = (importer, dotted)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(importer, dotted)
        return self._resolved[key]

    def _resolve(self, importer: str, dotted: str) -> Resolved | None:
        parts = dotted.split(".")
        start, rest = self._anchor(importer, parts)
        if start is None:
            return None
        while rest and (child := self.child(start, rest[0])) is not None:
            start, rest = child, rest[1:]
        return start, tuple(rest)

    def _anchor(self, importer: str, parts: list[str]) -> tuple[str | None, list[str]]:
        first = parts[0]
        if first == "crate":
            return self.crate_root(importer), parts[1:]
        if first == "self":
            return importer, parts[1:]
        if first == "super":
            module: str | None = importer
            while parts and parts[0] == "super" and module is not None:
                module, parts = self.parent(module), parts[1:]
            return module, parts
        crate = self.crates_seen_from(importer).get(first)
        if crate is not None:
            return crate, parts[1:]
        if self.child(importer, first) is not None:  # a module of the file's own
            return importer, parts
        return None, parts

    def declares(self, dotted: str, importer: str, targets: list[SymbolRow]) -> bool:
        """Whether the path `dotted`, written in `importer`, names one of `targets`."""
        resolved = self.resolve(importer, dotted)
        module_named = resolved is not None and not resolved[1] and "." in dotted
        if module_named:
            # the path ends at a module, and a declaration may share its name (modules and
            # functions are apart in Rust: engine/mod.rs's `pub use complete::complete`);
            # the `mod complete;` that declares the module is not what it names
            head, _, last = dotted.rpartition(".")
            above = self.resolve(importer, head)
            resolved = (above[0], (*above[1], last)) if above is not None else None
            targets = [s for s in targets if s.kind != NAMESPACE_KIND]
        if resolved is None:
            return False
        named = self.destinations(resolved, MAX_REEXPORT_HOPS)
        return any((s.path, _unoverloaded(s.fq_name)) in named for s in targets)

    def destinations(self, resolved: Resolved, hops: int) -> frozenset[tuple[str, str]]:
        """The (file, fq name) pairs a resolved path may name: the module file's own
        declaration, and where the file's `use`/`pub use` (or glob) of that name leads."""
        key = (resolved, hops)
        if key not in self._destinations:
            self._destinations[key] = self._destinations_of(resolved, hops)
        return self._destinations[key]

    def _destinations_of(self, resolved: Resolved, hops: int) -> frozenset[tuple[str, str]]:
        module_file, rest = resolved
        if not rest:
            return frozenset()  # a module, not a declaration
        wanted = ".".join(rest)
        out = {(module_file, wanted)}
        if hops <= 0:
            return frozenset(out)
        for written in self.imports_of(module_file):
            entry, _, alias = written.partition(ALIAS_MARK)
            head, _, leaf = entry.rpartition(".")
            leaf = alias or leaf
            if leaf == "*":
                path = f"{head}.{wanted}"
            elif leaf == rest[0]:
                path = ".".join([entry, *rest[1:]])
            else:
                continue
            again = self.resolve(module_file, path)
            if again is not None and again != resolved:
                out |= self.destinations(again, hops - 1)
        return frozenset(out)

    def imported_files(self, path: str, modules: list[str]) -> list[str]:
        """`path`'s use leaves as the repository files they lead to; a path naming nothing
        in the repository (`std.io.Read`) as written."""
        out: dict[str, None] = {}
        for written in modules:
            module = written.partition(ALIAS_MARK)[0]
            resolved = self.resolve(path, module.removesuffix(".*"))
            if resolved is None:
                out[module] = None
            elif resolved[0] != path:
                out[resolved[0]] = None
        return sorted(out)

    def renamed_reexports(self, path: str) -> list[tuple[str, str]]:
        """(alias, declared name) of each of `path`'s declarations that a module above it
        re-exports under another name (`pub use crate::flags::doc::version::generate_short
        as generate_version_short` in flags/mod.rs): callers use the alias."""
        out: list[tuple[str, str]] = []
        module: str | None = path
        for _ in range(MAX_REEXPORT_HOPS):
            module = self.parent(module) if module is not None else None
            if module is None:
                break
            for written in self.imports_of(module):
                entry, _, alias = written.partition(ALIAS_MARK)
                resolved = self.resolve(module, entry) if alias else None
                if resolved is not None and resolved[0] == path and len(resolved[1]) == 1:
                    out.append((alias, resolved[1][0]))
        return out

    def glob_imports(self, path: str) -> list[str]:
        """The modules `path` imports all of (`use super::*` as `super`)."""
        return [e.removesuffix(".*") for e in self.imports_of(path) if e.endswith(".*")]


def _unoverloaded(fq_name: str) -> str:
    return fq_name.split("(", 1)[0]
