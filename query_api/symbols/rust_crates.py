"""The Rust crate layout of a repository, for the dependents resolver (rust_modules): which
files exist, each package's Cargo.toml, the crate root a file belongs to (the nearest
lib.rs/main.rs, or a target its Cargo.toml names), the crates a file can name by package
(its own library and its path dependencies, workspace ones included), and a module file's
child and parent module files (languages/rust: `a.rs` or `a/mod.rs`).

Everything is read from the views with point reads, each fact once for as long as the
object is kept (rust_family.RustLayouts keeps it while the repository's files stay the same).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from processors.symbols.languages.rust import (
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
from streams.stores.views.symbols import SymbolViews

# the folders Cargo finds crates in without a Cargo.toml entry (`autobins`, `autotests`, ...):
# each `<folder>/x.rs` and `<folder>/x/main.rs` is a crate root of its own
AUTO_TARGET_FOLDERS = {
    "src/bin": "autobins",
    "tests": "autotests",
    "examples": "autoexamples",
    "benches": "autobenches",
}


class RustCrates:
    """A repository's crates and module files (see the module doc)."""

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
        if path in declared or (package is not None and self._auto_target(path, package)):
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

    def _auto_target(self, path: str, package: str) -> bool:
        """Whether Cargo finds `path` as a crate by its place in the package: fd's
        tests/tests.rs, named in no [[test]], was read as a module of no crate, so its
        `crate::testenv::TestEnv` led nowhere and src/bin/x.rs as a module of src/main.rs."""
        relative = path[len(package) + 1 :] if package else path
        if relative == "build.rs":
            return True
        settings = (self._manifest(package) or {}).get("package") or {}
        for folder, switch in AUTO_TARGET_FOLDERS.items():
            rest = relative.removeprefix(f"{folder}/")
            if rest == relative or settings.get(switch) is False:
                continue
            parts = rest.split("/")
            return (len(parts) == 1 and rest.endswith(".rs")) or parts[1:] == ["main.rs"]
        return False

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
