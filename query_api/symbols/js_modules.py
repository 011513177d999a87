"""Where a name a TS/JS file imports is declared, for dependents resolution: the module it
names (js_specifiers: a relative specifier, a path alias, a package of the repository, a
folder's package.json entry), and the re-exports that module hands the name on through.

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

from processors.symbols.languages.js_ts import (
    DEFAULT_EXPORT,
    NAMESPACE_MARK,
    ImportEntry,
    module_match,
    split_import_entry,
)
from query_api.symbols.families import UNQUALIFIED_MATCH_KINDS
from query_api.symbols.js_specifiers import MAX_FILES, JsSpecifiers
from streams.stores.views.symbols import SymbolRow, SymbolViews

MAX_DEPTH = 4  # barrels re-exporting barrels: `src/index.ts` -> `src/components/index.ts` -> ...
MAX_NAMES_AFTER_MODULE = 3  # `module.ns.ns.name`: namespaces re-exporting namespaces


# files a bundler imports as modules that declare nothing the index holds: WebAssembly,
# styles, data, images; a name imported from one is its own, not a declaration elsewhere
ASSET_EXTENSIONS = frozenset(
    {".wasm", ".wat", ".json", ".css", ".scss", ".sass", ".less", ".svg", ".png", ".jpg"}
    | {".jpeg", ".gif", ".webp", ".ico", ".txt", ".html", ".md", ".yaml", ".yml", ".toml"}
)


def imported_from_asset(qualified: str) -> bool:
    """Whether the reference `module.name` (or `module.ns.name`) names its module by a path
    with an asset's extension (`routes/wasm/sum.wasm.sum`). Such a module is no repository
    module, so it read as a package's name and `sum` matched every `sum` by name."""
    head = qualified
    for _ in range(MAX_NAMES_AFTER_MODULE):
        head, dot, _name = head.rpartition(".")
        if not dot:
            return False
        if posixpath.splitext(posixpath.basename(head))[1].lower() in ASSET_EXTENSIONS:
            return True
    return False


class JsModules(JsSpecifiers):
    """For one answer: whether a TS/JS reference qualified by its import means one of the
    declarations asked about."""

    def __init__(
        self, symbols: SymbolViews, repo_id: str, read_text: Callable[[str], str | None]
    ) -> None:
        super().__init__(symbols, repo_id, read_text)
        self._imports: dict[str, list[str]] = {}  # file -> the modules it imports
        self._declares: dict[str, frozenset[str]] = {}  # file -> its top-level names
        self._ends: dict[tuple[str, str], frozenset[str]] = {}
        self._entries: dict[str, list[ImportEntry]] = {}  # file -> its imports, parsed
        self._defaults: dict[str, frozenset[str]] = {}  # module -> _default_files

    def matches(self, path: str, qualified: str, targets: Sequence[SymbolRow]) -> bool | None:
        """Whether the reference in `path` qualified `module.name` (or `module.ns.name`, a
        name reached through a namespace the module exports: `z.object` of `import { z }
        from "zod"`) means one of `targets`; None when its module is no repository file,
        directly, through the path aliases of the file's tsconfig or as a package of the
        repository: a package's (`react`), whose names are matched by name, unless a
        package.json above `path` declares it a dependency (js_dependencies): False."""
        if any(module_match(qualified, s.path, s.fq_name) for s in targets):
            return True
        head, _, name = qualified.rpartition(".")
        if name == DEFAULT_EXPORT:
            return self._default_of(path, qualified, targets)
        if head.rpartition(".")[2] == DEFAULT_EXPORT:
            return self._member_of_default(path, head, name, targets)
        if imported_from_asset(qualified):
            return False  # an asset's export (`./sum.wasm`) is no declaration of code
        # a top-level declaration among them (its name, or the one it is exported under)
        top_level = any("." not in s.fq_name.split("(", 1)[0] for s in targets)
        if not top_level and not any(s.kind in UNQUALIFIED_MATCH_KINDS for s in targets):
            return False  # neither answer could match: no reads
        resolved = self._resolve(path, qualified)
        if resolved is None:  # a package's name, or past the answer's bounds: unknown
            if self.opened > MAX_FILES or self.dependencies.external(path, qualified):
                return False  # an installed package's (`express.Router`): not ours
            return None
        module, namespaces = resolved
        for namespace in namespaces:  # `z.coerce.string`: z, then coerce, are modules
            found = self._namespace_module(module, namespace)
            if found is None:
                return False  # a declaration's member, or a namespace the views do not hold
            module = found
        declared = self._declared_as(module, name)
        if any(module_match(f"{module}.{declared}", s.path, s.fq_name) for s in targets):
            return True
        return top_level and self._declared_through(module, name, targets)

    def declared_at(self, path: str, qualified: str) -> list[tuple[str, str]]:
        """The files declaring what the reference `qualified` in `path` names, each with the
        name it is declared under there (`src/system/memory/index.Memory.Create`: the
        namespace `Memory` that module exports, then the re-exports to `create.ts`'s
        `Create`; `_Object_` for a module exporting it `as Object`); [] when it names no
        declaration of a repository module within the answer's bounds."""
        resolved = self._resolve(path, qualified)
        if resolved is None:
            return []
        module, namespaces = resolved
        for namespace in namespaces:
            found = self._namespace_module(module, namespace)
            if found is None:
                return []
            module = found
        name = qualified.rpartition(".")[2]
        return [
            (file, declared)
            for end in sorted(self.declaring_modules(module, name))
            for declared in [self._declared_as(end, name)]
            for file in self._module_files(end)
            if declared in self._top_level(file)
        ]

    def _default_of(self, path: str, qualified: str, targets: Sequence[SymbolRow]) -> bool:
        """Whether a default import (`import app from "./createApp"`, `<module>.default`)
        means the default export of the file one of `targets` is declared in: the imported
        module's own, or one its named re-exports of `default` lead to. Which declaration is
        the default export the views do not record: the file is what is matched."""
        resolved = self._resolve(path, qualified)
        if resolved is None or resolved[1]:
            return False  # a package's default, or a namespace's member
        return not self._default_files(resolved[0]).isdisjoint(s.path for s in targets)

    def _member_of_default(
        self, path: str, default: str, name: str, targets: Sequence[SymbolRow]
    ) -> bool:
        """Whether `<module>.default.name` (`ValidationError.formatError(...)` after `import
        ValidationError from "./ValidationError"`) means one of `targets`: a member `name`
        of a top-level declaration of a file the default import leads to (which declaration
        is the default export the views do not record). QA on jquense/yup: `what calls
        formatError` matched no call of it, only the files importing the class."""
        members = [
            s for s in targets if s.name == name and s.fq_name.split("(", 1)[0].count(".") == 1
        ]
        return bool(members) and self._default_of(path, default, members)

    def _default_files(self, module: str) -> frozenset[str]:
        """The files of `module` and of every module its re-exports of `default` lead to:
        a default import of `module` may mean the default export of any of them. Kept per
        module: a file graph's build asks it of every default import in the repository."""
        if module not in self._defaults:
            reached: set[str] = set()

            def collect(_current: str, module_files: list[str]) -> bool:
                reached.update(module_files)
                return False

            self._walk(module, DEFAULT_EXPORT, collect)
            self._defaults[module] = frozenset(reached)
        return self._defaults[module]

    def _declared_through(self, module: str, name: str, targets: Sequence[SymbolRow]) -> bool:
        """Whether `name`, which `module` does not declare itself, is one of `targets` where
        the module's re-exports lead."""
        return any(
            module_match(f"{end}.{self._declared_as(end, name)}", s.path, s.fq_name)
            for end in self.declaring_modules(module, name)
            for s in targets
        )

    def _resolve(self, path: str, qualified: str) -> tuple[str, list[str]] | None:
        """The repository module a qualified reference starts with and the namespaces between
        it and the name (`zod/v3.z.object`: the module `zod/v3` names, and `z`), trying the
        longest prefix first (a module's path may hold dots); None when no prefix is a
        repository module."""
        head = qualified
        for through in range(1, MAX_NAMES_AFTER_MODULE + 1):
            head, dot, _ = head.rpartition(".")
            if not dot:
                return None
            module = (
                head
                if self._module_files(head)
                else self.built_source(head) or self.directory_main(head) or self._alias(path, head)
            )
            if module is not None:
                return module, qualified[len(head) + 1 :].split(".")[: through - 1]
        return None

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

        def declares(current: str, files: list[str]) -> bool:
            if any(name in self._top_level(path) for path in files):
                ends.add(current)
                return True
            return False

        self._walk(module, name, declares)
        return frozenset(ends)

    def _namespace_module(self, module: str, namespace: str) -> str | None:
        """The module that `namespace` names where `module`'s re-exports lead (`import * as
        z from "./external"` or `export * as z from ...`: processors/symbols/languages/
        js_ts.py), None when none does or a module declares the name itself."""
        key = (module, NAMESPACE_MARK + namespace)
        if key not in self._ends:
            found: list[str] = []

            def binds(current: str, files: list[str]) -> bool:
                if found or any(namespace in self._top_level(path) for path in files):
                    return True
                for path in files:
                    for entry in self._entries_of(path):
                        if entry.namespace == namespace:
                            found.append(self._indexed(entry.module))
                            return True
                return False

            self._walk(module, namespace, binds)
            self._ends[key] = frozenset(found[:1])
        return next(iter(self._ends[key]), None)

    def _walk(self, module: str, name: str, stop: Callable[[str, list[str]], bool]) -> None:
        """Breadth-first from `module` through the imports of its files that may hand `name`
        on (not a namespace import, not a named re-export of other names), at most MAX_DEPTH
        deep; `stop` sees each module with its files and says whether the walk goes no
        further from it."""
        seen = {module}
        frontier = [module]
        for _depth in range(MAX_DEPTH + 1):
            following: list[str] = []
            for current in frontier:
                files = self._module_files(current)
                if stop(current, files):
                    continue
                for path in files:
                    for entry in self._entries_of(path):
                        if not entry.hands_on(name):
                            continue
                        # a re-export of a package's build (`./lib/client`) is its source's
                        module = self._handed_on(path, entry.module)
                        if module not in seen:
                            seen.add(module)
                            following.append(module)
            frontier = following
            if not frontier:
                break

    def _handed_on(self, path: str, module: str) -> str:
        """The repository module `path`'s import entry `module` names: `_indexed`, or for a
        bare specifier a package of the repository or a path alias (`export * from
        '@tinyhttp/url'`: QA on tinyhttp/tinyhttp, whose packages/req re-exports
        packages/url so, found no user of packages/url's names past it)."""
        indexed = self._indexed(module)
        if self._module_files(indexed) or module.startswith((".", "/")):
            return indexed
        return self._alias(path, module) or indexed

    def _indexed(self, module: str) -> str:
        """`module`, or the source module it is built from when only that is indexed."""
        if self._module_files(module):
            return module
        return self.built_source(module) or module

    def _entries_of(self, path: str) -> list[ImportEntry]:
        if path not in self._entries:
            self._entries[path] = [split_import_entry(e) for e in self._imports_of(path)]
        return self._entries[path]

    def _imports_of(self, path: str) -> list[str]:
        if path not in self._imports:
            self._imports[path] = (
                self.symbols.imports_of_file(self.repo_id, path) if self._budget() else []
            )
        return self._imports[path]

    def _top_level(self, path: str) -> frozenset[str]:
        """The names `path` declares outside any other declaration (TS/JS fq names carry no
        module: a top-level declaration's fq name is its name, overloads with their types),
        and those it exports under another name (`export { output as infer }`)."""
        if path not in self._declares:
            rows = self.symbols.symbols_of_file(self.repo_id, path) if self._budget() else []
            self._declares[path] = frozenset(
                r.fq_name.split("(", 1)[0] for r in rows if "." not in r.fq_name.split("(", 1)[0]
            ).union(self._renamed(path), self._aliases(path))
        return self._declares[path]

    def _renamed(self, path: str) -> dict[str, str]:
        """What `path` exports under another name than it declares: exported -> declared."""
        return {
            exported: declared
            for entry in self._entries_of(path)
            for exported, declared in entry.renamed
        }

    def _aliases(self, path: str) -> set[str]:
        """The names `path` re-exports under another name (`export { _lt as lt } from`): a
        chain looking for `lt` ends there, at the alias."""
        return {exported for entry in self._entries_of(path) for exported, _name in entry.origins}

    def _declared_as(self, module: str, name: str) -> str:
        """The name `module` declares what it exports as `name` (itself unless renamed)."""
        for path in self._module_files(module):
            declared = self._renamed(path).get(name)
            if declared is not None:
                return declared
        return name
