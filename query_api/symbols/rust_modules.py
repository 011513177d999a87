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

Everything is read from the views with point reads, each fact once per answer; the crate
layout (crate roots, packages, module files) is rust_crates.py.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from processors.symbols.languages.rust import ALIAS_MARK, ANCHORS
from query_api.symbols.rust_crates import RustCrates
from streams.stores.views.symbols import SymbolRow, SymbolViews

MAX_REEXPORT_HOPS = 4  # `pub use` chains followed from one path
NAMESPACE_KIND = "Namespace"  # a `mod x;` or `mod x { }` declaration

Resolved = tuple[str, tuple[str, ...]]  # (the module's file, the path left inside it)


class RustModules:
    """One answer's view of a repository's Rust module tree (see the module doc), over its
    crate layout (rust_crates.RustCrates)."""

    def __init__(
        self, symbols: SymbolViews, repo_id: str, read_text: Callable[[str], str | None]
    ) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self.crates = RustCrates(symbols, repo_id, read_text)
        self._imports: dict[str, list[str]] = {}
        self._top_level: dict[str, frozenset[str]] = {}
        self._resolved: dict[tuple[str, str], Resolved | None] = {}
        self._destinations: dict[tuple[Resolved, int], frozenset[tuple[str, str]]] = {}

    def for_another_answer(self) -> RustModules:
        """The same layout facts (files, manifests, crate roots, where paths lead), with
        the facts of files' contents (imports, re-exports) read again: the layout may be
        kept while the repository's files stay the same, imports are derived later."""
        again = copy.copy(self)
        again._imports = {}
        again._top_level = {}
        again._destinations = {}
        return again

    def imports_of(self, path: str) -> list[str]:
        if path not in self._imports:
            self._imports[path] = self.symbols.imports_of_file(self.repo_id, path)
        return self._imports[path]

    # -- paths ------------------------------------------------------------------------------

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
        while rest and (child := self.crates.child(start, rest[0])) is not None:
            start, rest = child, rest[1:]
        return start, tuple(rest)

    def _anchor(self, importer: str, parts: list[str]) -> tuple[str | None, list[str]]:
        first = parts[0]
        if first == "crate":
            return self.crates.crate_root(importer), parts[1:]
        if first == "self":
            return importer, parts[1:]
        if first == "super":
            module: str | None = importer
            while parts and parts[0] == "super" and module is not None:
                module, parts = self.crates.parent(module), parts[1:]
            return module, parts
        crate = self.crates.crates_seen_from(importer).get(first)
        if crate is not None:
            return crate, parts[1:]
        if self.crates.child(importer, first) is not None:  # a module of the file's own
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
        return any(
            (s.path, _unoverloaded(s.fq_name)) in named or self._implemented_there(s, named)
            for s in targets
        )

    def names_at_crate_root(self, importer: str, dotted: str, macro: SymbolRow) -> bool:
        """Whether the path `dotted`, written in `importer`, names the `#[macro_export]`
        macro `macro`: such a macro stands at its crate's root, whichever module defines
        it, so `anyhow::bail` means src/macros.rs's `bail` (or a root's `pub use` of it)."""
        resolved = self.resolve(importer, dotted)
        root = self.crates.crate_root(macro.path)
        if resolved is None or root is None:
            return False
        return (root, _unoverloaded(macro.fq_name)) in self.destinations(
            resolved, MAX_REEXPORT_HOPS
        )

    def _implemented_there(self, target: SymbolRow, named: frozenset[tuple[str, str]]) -> bool:
        """Whether `target`, an associated item (`Platform.convert`), is what a path naming
        the item of its type's own file means: an `impl` block may sit in any module of the
        crate (`impl PlatformInterface for Platform` in platform/unix.rs, `struct Platform`
        in platform.rs), and it is for that type when its file names the type by a path
        leading to the same declaration (`use super::*` there), not a type of its own."""
        fq = _unoverloaded(target.fq_name)
        owner, dot, _ = fq.rpartition(".")
        if not dot:
            return False
        elsewhere = {path for path, name in named if name == fq and path != target.path}
        return bool(elsewhere) and any(
            (path, owner) in self.destinations(resolved, MAX_REEXPORT_HOPS)
            for resolved in self.written_in(target.path, owner)
            for path in elsewhere
        )

    def written_in(self, importer: str, name: str) -> list[Resolved]:
        """Where the name `name` (`Platform`, `tests.Helper`), written bare in `importer`,
        leads: through its use leaves (`use crate::platform::Platform`), its glob imports
        (`use super::*`) or as a path of its own."""
        head, _, tail = name.partition(".")
        paths = [name, *self.through_globs(importer, name)]
        for written in self.imports_of(importer):
            entry, _, alias = written.partition(ALIAS_MARK)
            if (alias or entry.rpartition(".")[2]) == head:
                paths.append(f"{entry}.{tail}" if tail else entry)
        found = (self.resolve(importer, path) for path in paths)
        return [r for r in found if r is not None and r[1]]

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
        in the repository as written (`std::io::Read`: the entries are dotted, and a Rust
        name holds no dot); none for a path from a name the file declares itself: fd's
        fmt/mod.rs listed `Token::*`, its own enum's variants."""
        out: dict[str, None] = {}
        own = self.top_level_names(path)
        for written in modules:
            module = written.partition(ALIAS_MARK)[0]
            resolved = self.resolve(path, module.removesuffix(".*"))
            if resolved is None and module.partition(".")[0] in own:
                continue  # `use Token::*` of the file's own enum (fd's fmt/mod.rs)
            if resolved is None:
                out[module.replace(".", "::")] = None
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
            module = self.crates.parent(module) if module is not None else None
            if module is None:
                break
            for written in self.imports_of(module):
                entry, _, alias = written.partition(ALIAS_MARK)
                resolved = self.resolve(module, entry) if alias else None
                if resolved is not None and resolved[0] == path and len(resolved[1]) == 1:
                    out.append((alias, resolved[1][0]))
        return out

    def through_globs(self, importer: str, written: str) -> list[str]:
        """`written` (`Foo.new`) as the paths `importer`'s glob imports make of it
        (`super.Foo.new` after `use super::*`); none where the file declares its first name
        itself, which a glob import's names never shadow, or where it starts at an anchor."""
        head = written.partition(".")[0]
        if head in ANCHORS or head in self.top_level_names(importer):
            return []
        return [f"{module}.{written}" for module in self.glob_imports(importer)]

    def top_level_names(self, path: str) -> frozenset[str]:
        """The names `path` declares at its module's top (not members, not in `mod`s)."""
        if path not in self._top_level:
            declared = self.symbols.symbols_of_file(self.repo_id, path)
            names = {_unoverloaded(s.fq_name) for s in declared}
            self._top_level[path] = frozenset(n for n in names if "." not in n)
        return self._top_level[path]

    def glob_imports(self, path: str) -> list[str]:
        """The modules `path` imports all of (`use super::*` as `super`)."""
        return [e.removesuffix(".*") for e in self.imports_of(path) if e.endswith(".*")]


def _unoverloaded(fq_name: str) -> str:
    return fq_name.split("(", 1)[0]
