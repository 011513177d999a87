"""Where a name a TS/JS file imports is declared, for dependents resolution: the module it
names (a relative specifier, which the extractor resolved, or a path alias: tsconfig_paths),
and the re-exports that module hands the name on through.

`import { Button } from '../components'` names the module `src/components`, whose
`index.ts` only re-exports (`export * from './Button'`): the declaration lives in
`src/components/Button.tsx`. A name a module does not declare itself can only reach the
importer through the module's own imports (valid TypeScript exports nothing else), so the
chain is: a module that declares the name top-level ends it; one that does not hands it on
to the modules it imports (`export ... from` and `import` + `export { }` alike), at most
MAX_DEPTH barrels deep. Every read is a bounded point read of the views, cached for one
answer, and one answer opens at most MAX_FILES files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

from processors.symbols.extract import strip_js_extension
from query_api.symbols.tsconfig_paths import CONFIG_NAMES, PathAliases, load_aliases
from streams.stores.views.symbols import SymbolRow, SymbolViews

MAX_DEPTH = 4  # barrels re-exporting barrels: `src/index.ts` -> `src/components/index.ts` -> ...
MAX_FILES = 256  # files one answer may open while following re-exports


UNQUALIFIED_MATCH_KINDS = frozenset({"Type", "Interface", "Enum", "Function", "Other"})


def js_module_match(qualified: str, path: str, fq_name: str) -> bool:
    """`src/orders.OrderService` (a name imported from the repository file `src/orders.ts`,
    see processors/symbols/extract.py) is the top-level declaration `OrderService` of
    `src/orders.*` or `src/orders/index.*`. Their fq names carry no module, so the path is what
    tells two `OrderService`s apart."""
    module, _, name = qualified.rpartition(".")
    stem = posixpath.splitext(path)[0]
    if stem.endswith(".d"):  # `x.d.ts`
        stem = stem[:-2]
    in_module = module == stem or stem == module + "/index"
    return in_module and fq_name.split("(", 1)[0] == name


class JsModules:
    """For one answer: whether a TS/JS reference qualified by its import means one of the
    declarations asked about."""

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
        self._imports: dict[str, list[str]] = {}  # file -> the modules it imports
        self._declares: dict[str, frozenset[str]] = {}  # file -> its top-level names
        self._ends: dict[tuple[str, str], frozenset[str]] = {}
        self._texts: dict[str, str | None] = {}  # config path -> its text

    def matches(self, path: str, qualified: str, targets: Sequence[SymbolRow]) -> bool | None:
        """Whether the reference in `path` qualified `module.name` means one of `targets`;
        None when its module is no repository file, directly or through the path aliases of
        the file's tsconfig: a package's (`react`), whose names are matched by name."""
        if any(js_module_match(qualified, s.path, s.fq_name) for s in targets):
            return True
        module, _, name = qualified.rpartition(".")
        top_level = any(s.fq_name.split("(", 1)[0] == name for s in targets)
        if not top_level and not any(s.kind in UNQUALIFIED_MATCH_KINDS for s in targets):
            return False  # neither answer could match: no reads
        if not self._module_files(module):
            mapped = self._alias(path, module)
            if mapped is None:
                return None
            module = mapped
            if any(js_module_match(f"{module}.{name}", s.path, s.fq_name) for s in targets):
                return True
        return top_level and any(  # a name the module does not declare: its re-exports
            js_module_match(f"{end}.{name}", s.path, s.fq_name)
            for end in self.declaring_modules(module, name)
            for s in targets
        )

    def repository_module(self, path: str, module: str) -> str:
        """`module` as `path` imports it, a path alias (`@/components/Button`) as the
        repository module it names (`web/components/Button`), like relative specifiers."""
        _directory, aliases = self._config_for(posixpath.dirname(path))
        if aliases is None or not aliases.candidates(module) or self._module_files(module):
            return module
        return self._alias(path, module) or module

    def _alias(self, path: str, specifier: str) -> str | None:
        """The repository module a non-relative specifier names through the path aliases of
        the config nearest to `path`: the first candidate that is an indexed file."""
        directory, aliases = self._config_for(posixpath.dirname(path))
        key = (directory, specifier)
        if key not in self._mapped:
            found = None
            for candidate in aliases.candidates(specifier) if aliases is not None else []:
                module = strip_js_extension(candidate)
                if self._module_files(module):
                    found = module
                    break
            self._mapped[key] = found
        return self._mapped[key]

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

    def declaring_modules(self, module: str, name: str) -> frozenset[str]:
        """The modules, reached from `module` through its re-exports, that declare `name`
        top-level: the chain stops at the first module declaring it. Empty when `module` is no
        repository file (a package) or the chain leads nowhere within the bounds."""
        key = (module, name)
        if key not in self._ends:
            self._ends[key] = self._follow(module, name)
        return self._ends[key]

    def _follow(self, module: str, name: str) -> frozenset[str]:
        ends: set[str] = set()
        seen = {module}
        frontier = [module]
        for _depth in range(MAX_DEPTH + 1):
            following: list[str] = []
            for current in frontier:
                files = self._module_files(current)
                if any(name in self._top_level(path) for path in files):
                    ends.add(current)
                    continue
                for path in files:
                    for imported in self._imports_of(path):
                        if imported not in seen:
                            seen.add(imported)
                            following.append(imported)
            frontier = following
            if not frontier:
                break
        return frozenset(ends)

    def _module_files(self, module: str) -> list[str]:
        if module not in self._files:
            self._files[module] = (
                self.symbols.module_files(self.repo_id, module) if self._budget() else []
            )
        return self._files[module]

    def _imports_of(self, path: str) -> list[str]:
        if path not in self._imports:
            self._imports[path] = (
                self.symbols.imports_of_file(self.repo_id, path) if self._budget() else []
            )
        return self._imports[path]

    def _top_level(self, path: str) -> frozenset[str]:
        """The names `path` declares outside any other declaration (TS/JS fq names carry no
        module: a top-level declaration's fq name is its name, overloads with their types)."""
        if path not in self._declares:
            rows = self.symbols.symbols_of_file(self.repo_id, path) if self._budget() else []
            self._declares[path] = frozenset(
                r.fq_name.split("(", 1)[0] for r in rows if "." not in r.fq_name.split("(", 1)[0]
            )
        return self._declares[path]

    def _budget(self) -> bool:
        self.opened += 1
        return self.opened <= MAX_FILES
