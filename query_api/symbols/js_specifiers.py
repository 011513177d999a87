"""Which repository module a TS/JS import names, for dependents resolution (js_modules): a
relative specifier as the extractor resolved it, a tsconfig path alias (languages/
js_ts_tsconfig), a package of the repository imported by its name (languages/js_ts_packages's
rules, RepositoryPackages below finds the packages), or a folder imported by its path through
its package.json entry. Every read is a bounded point read of the views, cached for one
answer, and one answer opens at most MAX_FILES files.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable

from processors.symbols.languages.js_ts import strip_js_extension
from processors.symbols.languages.js_ts_packages import (
    MANIFEST,
    PNPM_WORKSPACE,
    PackageManifest,
    directory_entries,
    has_exports,
    module_of,
    parse_manifest,
    split_specifier,
    workspace_patterns,
)
from processors.symbols.languages.js_ts_tsconfig import CONFIG_NAMES, PathAliases, load_aliases
from query_api.symbols.js_dependencies import DeclaredDependencies
from streams.stores.views.symbols import SymbolViews

MAX_FILES = 1024  # files one answer may open while resolving modules and following re-exports


class JsSpecifiers:
    """For one answer: the repository modules TS/JS imports name, and the bounded, cached
    reads behind them (a file's text, a module's files)."""

    def __init__(
        self, symbols: SymbolViews, repo_id: str, read_text: Callable[[str], str | None]
    ) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self.read_text = read_text  # a repository file's text (the content view), or None
        self.opened = 0
        # directory -> (the directory of its nearest config, that config's aliases)
        self._configs: dict[str, tuple[str, PathAliases | None]] = {}
        self._mapped: dict[tuple[str, str], str | None] = {}  # (config dir, specifier) -> module
        self._files: dict[str, list[str]] = {}  # module -> its indexed files
        self._texts: dict[str, str | None] = {}  # config path -> its text
        self._mains: dict[str, str | None] = {}  # folder module -> its package.json entry
        self.packages = RepositoryPackages(self._read, self._first_file_under, self._budget)
        self.dependencies = DeclaredDependencies(self._read, self.packages.workspace_names)

    def repository_module(self, path: str, module: str) -> str:
        """`module` as `path` imports it, a path alias (`@/components/Button`) as the
        repository module it names (`web/components/Button`), like relative specifiers."""
        if self._module_files(module):
            return module
        return (
            self.built_source(module)
            or self.directory_main(module)
            or self._alias(path, module)
            or module
        )

    def built_source(self, module: str) -> str | None:
        """The indexed source module a module inside a build folder is made from, when the
        build is not indexed (sources_of_built): feathers' root shim client.d.ts re-exports
        `./lib/client`, built from src/client.ts. None when `module` names no build."""
        return next((m for m in sources_of_built(module) if self._module_files(m)), None)

    def built_specifiers(self, modules: list[str]) -> list[str]:
        """The build-folder modules (builds_of) an import may name one of `modules` (a
        file's module keys) by, where built_source leads back to it: the reverse of
        built_source, so that a barrel's importers through its build are found by what they
        write (kysely's test/typings/index.d.ts: `export * from
        '../../dist/readonly/index.js'` of src/readonly/index.ts)."""
        return [
            built
            for module in modules
            for built in builds_of(module)
            if not self._module_files(built) and self.built_source(built) == module
        ]

    def directory_main(self, module: str) -> str | None:
        """The module a repository folder imported by its path (`require('../..')`, the
        module `.` in koa's tests) names through its package.json: `lib/application` for
        `"main": "lib/application.js"`; None when the folder has no such entry that is an
        indexed module (its `index` is a module of its own: module_files)."""
        if module in self._mains:
            return self._mains[module]
        directory = "" if module == "." else module
        found = None
        if not directory.startswith(("@", ".")) and ":" not in directory:
            text = self._read(posixpath.join(directory, MANIFEST))
            for target in directory_entries(text, directory) if text is not None else []:
                candidate = module_of(target)
                if self._budget() and self.symbols.module_files(self.repo_id, candidate):
                    found = candidate
                    break
        self._mains[module] = found
        return found

    def directory_keys(self, path: str) -> list[str]:
        """The modules naming `path` as their folder's package.json entry (the reverse of
        directory_main): `.` for koa's lib/application.js. Every folder above it is read."""
        stem = module_of(path)
        keys = []
        directory = posixpath.dirname(path)
        while True:
            module = directory or "."
            if self.directory_main(module) == stem:
                keys.append(module)
            if not directory:
                return keys
            directory = posixpath.dirname(directory)

    def alias_specifiers(self, path: str, modules: list[str]) -> list[str]:
        """The specifiers the path aliases of the config nearest to `path` map to one of
        `modules` (its module keys): the reverse of _alias, so that the importers of a file
        are found by what they write (zustand's `zustand/middleware` for src/middleware.ts
        through `"zustand/*": ["./src/*.ts"]`). Each one is checked forward."""
        _directory, aliases = self._config_for(posixpath.dirname(path))
        if aliases is None:
            return []
        wanted = set(modules)
        found: set[str] = set()
        for pattern, substitutions in aliases.patterns:
            for substitution in substitutions:
                found.update(_reverse(pattern, strip_js_extension(substitution), wanted))
        if aliases.base_url is not None:
            base = aliases.base_url + "/" if aliases.base_url else ""
            found.update(m[len(base) :] for m in wanted if base and m.startswith(base))
        return sorted(
            spec
            for spec in found
            if not wanted.isdisjoint(strip_js_extension(c) for c in aliases.candidates(spec))
        )

    def package_specifiers(self, path: str, modules: list[str]) -> list[str]:
        """The specifiers that name `path` (its module keys `modules`) by its package: the
        package's name and an `exports` subpath (`nitro/types` for src/types/index.ts
        through `"./types": "./dist/types/index.mjs"`, its build: built_from_source), or a
        `#` key of its `imports` field, which only the package's own files use. The reverse
        of _package_module, so that a barrel's importers are found by what they write."""
        directory = posixpath.dirname(path)
        wanted = set(modules)
        found: set[str] = set()
        package = self.packages.holding(directory) or self.packages.workspace_holding(directory)
        if package is not None:
            subpaths = _subpaths_naming(package, wanted)
            found.update(package.name + sub[1:] for sub in subpaths)
            if package.exports is None:  # any file by its path under the package's folder
                found.update(_paths_under(package, wanted))
        root, imports = self._imports_field(directory)
        if imports:
            subpaths = _subpaths_naming(_imports_as_exports(root, imports), wanted)
            found.update("#" + sub[2:] for sub in subpaths)
        return sorted(found)

    def _alias(self, path: str, specifier: str) -> str | None:
        """The repository module a non-relative specifier names: through the path aliases of
        the config nearest to `path` (TypeScript tries them first), else as a package of the
        repository; the first candidate that is an indexed file."""
        directory, aliases = self._config_for(posixpath.dirname(path))
        key = (directory, specifier)
        if key not in self._mapped:
            candidates = aliases.candidates(specifier) if aliases is not None else []
            modules = [strip_js_extension(c) for c in candidates]
            found = next((m for m in modules if self._module_files(m)), None)
            self._mapped[key] = found or self._package_module(path, specifier)
        return self._mapped[key]

    def _package_module(self, path: str, specifier: str) -> str | None:
        """The repository module a bare specifier names as a package of the repository (a
        self-reference, or a workspace package: RepositoryPackages), or None."""
        if specifier.startswith("#"):
            return self._subpath_import(path, specifier)
        split = split_specifier(specifier)
        if split is None:
            return None
        name, subpath = split
        package = self.packages.named(path, name)
        if package is None:
            return None
        return self._first_module(package.directory, package.candidates(subpath))

    def _subpath_import(self, path: str, specifier: str) -> str | None:
        """The repository module a `#` specifier names through the `imports` field of the
        package.json nearest to `path` (Node's subpath imports, which TypeScript reads with
        `resolvePackageJsonImports`: nitro's `"#nitro/runtime/*":
        "./dist/runtime/internal/*.mjs"`). The field is read as `exports` is, its `#` keys
        as `./` subpaths; None when no such field maps it."""
        directory, imports = self._imports_field(posixpath.dirname(path))
        if not imports:
            return None
        manifest = _imports_as_exports(directory, imports)
        return self._first_module(directory, manifest.candidates(f"./{specifier[1:]}"))

    def _imports_field(self, directory: str) -> tuple[str, dict[str, object] | None]:
        """The folder of the package.json nearest to `directory` and its `imports` field
        (None when absent or not an object); ("", None) without any package.json."""
        current: str | None = directory
        while current is not None:
            text = self._read(posixpath.join(current, MANIFEST))
            if text is not None:
                return current, _imports_of_manifest(text)
            current = posixpath.dirname(current) if current else None
        return "", None

    def _first_module(self, directory: str, candidates: list[str]) -> str | None:
        """The first of a package's target paths that is an indexed module, else the first
        one built from an indexed source module (built_from_source)."""
        modules = [module_of(c) for c in candidates]
        found = next((m for m in modules if self._module_files(m)), None)
        if found is not None:
            return found
        built = (built_from_source(directory, c) for c in candidates)
        return next((m for m in built if m is not None and self._module_files(m)), None)

    def _first_file_under(self, prefix: str, after: str | None) -> str | None:
        rows = self.symbols.store.files_under(self.repo_id, prefix, after, 1)
        return rows[0].path if rows else None

    def _config_for(self, directory: str) -> tuple[str, PathAliases | None]:
        """The nearest directory at or above `directory` with a tsconfig.json/jsconfig.json,
        and its aliases ("" and None when there is none)."""
        chain: list[str] = []
        current: str | None = directory
        found: tuple[str, PathAliases | None] = ("", None)
        while current is not None:
            if current in self._configs:
                found = self._configs[current]
                break
            chain.append(current)
            config = next(
                (p for p in (posixpath.join(current, n) for n in CONFIG_NAMES) if self._exists(p)),
                None,
            )
            if config is not None:
                found = (current, load_aliases(config, self._read))
                break
            current = posixpath.dirname(current) if current else None
        for d in chain:
            self._configs[d] = found
        return found

    def _exists(self, path: str) -> bool:
        return self._read(path) is not None

    def _read(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self.read_text(path) if self._budget() else None
        return self._texts[path]

    def _module_files(self, module: str) -> list[str]:
        if module not in self._files:
            self._files[module] = (
                self.symbols.module_files(self.repo_id, module) if self._budget() else []
            )
        return self._files[module]

    def new_answer(self) -> None:
        """Another answer over the same views starts: what is cached stays (the views have
        not changed), and it may open MAX_FILES files more."""
        self.opened = 0

    def _budget(self) -> bool:
        self.opened += 1
        return self.opened <= MAX_FILES


def _imports_of_manifest(text: str) -> dict[str, object] | None:
    """A package.json's `imports` field, None when the text is no JSON object or the field
    is no object."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    imports = data.get("imports") if isinstance(data, dict) else None
    return imports if isinstance(imports, dict) else None


def _imports_as_exports(directory: str, imports: dict[str, object]) -> PackageManifest:
    """A package.json's `imports` field read as `exports` is (Node resolves both alike):
    its `#x` keys as `./x` subpaths."""
    as_exports = {f"./{key[1:]}": value for key, value in imports.items() if key[:1] == "#"}
    return PackageManifest(name="", directory=directory, exports=as_exports)


def _paths_under(manifest: PackageManifest, wanted: set[str]) -> list[str]:
    """The specifiers naming `wanted` modules by their path under a package without
    `exports` (`@feathersjs/transport-commons/client` for packages/transport-commons/client),
    as Node resolves a subpath of such a package."""
    prefix = manifest.directory + "/"
    return [manifest.name + "/" + m[len(prefix) :] for m in wanted if m.startswith(prefix)]


def _subpaths_naming(manifest: PackageManifest, wanted: set[str]) -> list[str]:
    """The `exports` subpaths of `manifest` whose target is one of the modules `wanted`, as
    written or as the source its build is made from (built_from_source); a pattern's (`./*`)
    with its `*` filled in. A key looked up as written gives its targets with `*` kept."""
    exports = manifest.exports
    keys = [k for k in exports if k.startswith(".")] if isinstance(exports, dict) else []
    if not keys:
        keys = ["."]  # sugar, or no `exports`: the package's own entry (its entry fields)
    found: list[str] = []
    for key in keys:
        for target in manifest.candidates(key):
            forms = [module_of(target), built_from_source(manifest.directory, target)]
            found += [sub for f in forms if f is not None for sub in _reverse(key, f, wanted)]
    return found


# where a package's entries and exports point at built files (not committed): tsc's `outDir`
# and the bundlers' defaults (nitro's `dist`, feathers' `lib`, `"main": "lib/"`)
BUILD_FOLDERS = ("dist", "lib", "build")
SOURCE_FOLDER = "src"  # where those files are built from


def built_from_source(directory: str, target: str) -> str | None:
    """The source module an entry or exports target in the package's build folder is built
    from: `dist/runtime/app.mjs` -> `src/runtime/app` (nitro's `"./app":
    "./dist/runtime/app.mjs"`, which `obuild --stub` or unbuild makes re-export
    src/runtime/app.ts), the folder itself -> `src/index` (feathers'
    `"main": "lib/"`). Such a target is no repository file, so the package's imports of itself
    (`nitro/app`, `nitro/types` in 124 of nitro's files) and a workspace's imports of its
    packages (`@feathersjs/feathers` in most of feathers' files) named no module; None for a
    target outside the build folders. The caller checks that the source is indexed."""
    prefix = f"{directory}/" if directory else ""
    for folder in BUILD_FOLDERS:
        build = prefix + folder
        if target == build:  # the folder: its index, as Node and TypeScript read `lib/`
            return f"{prefix}{SOURCE_FOLDER}/index"
        if target.startswith(build + "/"):
            return module_of(prefix + SOURCE_FOLDER + target[len(build) :])
    return None


def sources_of_built(module: str) -> list[str]:
    """The modules `module` may be built from when one of its folders is a build folder
    (`pkg/lib/client` -> `pkg/src/client`), nearest the root first: a relative import of a
    package's build, whose package folder the module does not say."""
    parts = module.split("/")
    return [
        "/".join([*parts[:i], SOURCE_FOLDER, *parts[i + 1 :]])
        for i, part in enumerate(parts[:-1])
        if part in BUILD_FOLDERS
    ]


def builds_of(module: str) -> list[str]:
    """The modules `module` may be built into: each of its `src` folders as each build
    folder (`pkg/src/client` -> `pkg/dist/client`, `pkg/lib/client`, `pkg/build/client`), the
    reverse of sources_of_built."""
    parts = module.split("/")
    return [
        "/".join([*parts[:i], folder, *parts[i + 1 :]])
        for i, part in enumerate(parts[:-1])
        if part == SOURCE_FOLDER
        for folder in BUILD_FOLDERS
    ]


def _reverse(pattern: str, target: str, modules: set[str]) -> list[str]:
    """The specifiers `pattern` turns into one of `modules` through the substitution
    `target` (extension stripped): `zustand/middleware` of `zustand/*` -> `src/*`."""
    if "*" not in target:
        return [pattern] if target in modules and "*" not in pattern else []
    before, _, after = target.partition("*")
    return [
        pattern.replace("*", m[len(before) : len(m) - len(after)], 1)
        for m in sorted(modules)
        if "*" in pattern
        and len(m) > len(before) + len(after)
        and m.startswith(before)
        and m.endswith(after)
    ]


MAX_WORKSPACE_PACKAGES = 200  # folders one answer lists as workspace packages


class RepositoryPackages:
    """The repository's packages as one answer sees them, read through the caller's
    callbacks (each read counted against the answer's bounds by the caller): `read` a
    repository file's text or None, `first_under(prefix, after)` the first indexed path under
    `prefix` after `after` or None, `budget()` whether another read is allowed."""

    def __init__(
        self,
        read: Callable[[str], str | None],
        first_under: Callable[[str, str | None], str | None],
        budget: Callable[[], bool],
    ) -> None:
        self.read = read
        self.first_under = first_under
        self.budget = budget
        self._scopes: dict[str, PackageManifest | None] = {}  # directory -> its package
        self._workspace: dict[str, PackageManifest] | None = None  # name -> workspace package

    def holding(self, directory: str) -> PackageManifest | None:
        """The package whose folder holds `directory`, when it may be imported by its name
        (its package.json has `exports`), else None."""
        return self._scope_of(directory)

    def named(self, path: str, name: str) -> PackageManifest | None:
        """The package `name` as the file at `path` imports it: its own (a self-reference),
        else the workspace package of that name, else None."""
        package = self._scope_of(posixpath.dirname(path))
        if package is not None and package.name == name:
            return package
        return self._workspace_packages().get(name)

    def _scope_of(self, directory: str) -> PackageManifest | None:
        """The package whose folder holds `directory`, when code inside it may import it by
        its own name (its package.json has `exports`: Node's and TypeScript's self-reference)."""
        chain: list[str] = []
        current: str | None = directory
        found: PackageManifest | None = None
        while current is not None:
            if current in self._scopes:
                found = self._scopes[current]
                break
            chain.append(current)
            text = self.read(posixpath.join(current, MANIFEST))
            if text is not None:
                manifest = parse_manifest(text, current)
                found = manifest if manifest is not None and has_exports(text) else None
                break
            current = posixpath.dirname(current) if current else None
        for d in chain:
            self._scopes[d] = found
        return found

    def workspace_holding(self, directory: str) -> PackageManifest | None:
        """The workspace package whose folder holds `directory` (feathers' packages, which
        have no `exports`: other packages import them by name), else None."""
        for manifest in self._workspace_packages().values():
            if manifest.directory and (directory + "/").startswith(manifest.directory + "/"):
                return manifest
        return None

    def workspace_names(self) -> frozenset[str]:
        """The names of the repository root's workspace packages."""
        return frozenset(self._workspace_packages())

    def _workspace_packages(self) -> dict[str, PackageManifest]:
        """The repository root's workspace packages by name (read once per answer)."""
        if self._workspace is None:
            self._workspace = {}
            patterns = workspace_patterns(self.read(MANIFEST), self.read(PNPM_WORKSPACE))
            for folder in self._workspace_folders(patterns):
                text = self.read(posixpath.join(folder, MANIFEST))
                manifest = parse_manifest(text, folder) if text is not None else None
                if manifest is not None:
                    self._workspace.setdefault(manifest.name, manifest)
        return self._workspace

    def _workspace_folders(self, patterns: list[str]) -> list[str]:
        """The folders the patterns name: `apps/web` as written, `packages/*` (and `/**`,
        one level down here) each folder directly under `packages`."""
        folders: list[str] = []
        for pattern in patterns:
            parent, _, last = pattern.rpartition("/")
            if "*" in parent or (last not in ("*", "**") and "*" in last):
                continue  # a glob inside the path: not a layout workspaces use
            if last in ("*", "**"):
                folders += self._subfolders(parent, MAX_WORKSPACE_PACKAGES - len(folders))
            else:
                folders.append(pattern)
        return folders[:MAX_WORKSPACE_PACKAGES]

    def _subfolders(self, parent: str, limit: int) -> list[str]:
        """The folders directly under `parent` that hold indexed files, one bounded read each
        (skipping over each folder's files rather than reading them)."""
        prefix = f"{parent}/" if parent else ""
        out: list[str] = []
        after: str | None = None
        while len(out) < limit and self.budget():
            first = self.first_under(prefix, after)
            if first is None:
                break
            folder, slash, _ = first[len(prefix) :].partition("/")
            if not slash:
                after = first  # a file directly under `parent`
                continue
            out.append(prefix + folder)
            after = f"{prefix}{folder}/\U0010ffff"  # past every path under the folder
        return out
