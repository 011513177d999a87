"""Which repository module a TS/JS import names, for dependents resolution (js_modules): a
relative specifier as the extractor resolved it, a tsconfig path alias (tsconfig_paths), a
package of the repository imported by its name (js_packages), or a folder imported by its
path through its package.json entry. Every read is a bounded point read of the views, cached
for one answer, and one answer opens at most MAX_FILES files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from processors.symbols.extract import strip_js_extension
from query_api.symbols.js_packages import (
    MANIFEST,
    RepositoryPackages,
    directory_entries,
    module_of,
    split_specifier,
)
from query_api.symbols.tsconfig_paths import CONFIG_NAMES, PathAliases, load_aliases
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

    def repository_module(self, path: str, module: str) -> str:
        """`module` as `path` imports it, a path alias (`@/components/Button`) as the
        repository module it names (`web/components/Button`), like relative specifiers."""
        if self._module_files(module):
            return module
        return self.directory_main(module) or self._alias(path, module) or module

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
        self-reference, or a workspace package: js_packages), or None."""
        split = split_specifier(specifier)
        if split is None:
            return None
        name, subpath = split
        package = self.packages.named(path, name)
        if package is None:
            return None
        modules = (module_of(c) for c in package.candidates(subpath))
        return next((m for m in modules if self._module_files(m)), None)

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

    def _budget(self) -> bool:
        self.opened += 1
        return self.opened <= MAX_FILES
