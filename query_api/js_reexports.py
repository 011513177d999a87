"""TS/JS re-exports followed to the declaring module, for dependents resolution.

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

from streams.stores.views_symbols import SymbolViews

MAX_DEPTH = 4  # barrels re-exporting barrels: `src/index.ts` -> `src/components/index.ts` -> ...
MAX_FILES = 256  # files one answer may open while following re-exports


class ReexportFollower:
    """For one answer: where a name imported from a TS/JS module is declared."""

    def __init__(self, symbols: SymbolViews, repo_id: str) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self.opened = 0
        self._files: dict[str, list[str]] = {}  # module -> its indexed files
        self._imports: dict[str, list[str]] = {}  # file -> the modules it imports
        self._declares: dict[str, frozenset[str]] = {}  # file -> its top-level names
        self._ends: dict[tuple[str, str], frozenset[str]] = {}

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
