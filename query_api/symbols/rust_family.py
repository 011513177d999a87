"""Rust's rules for the dependents resolver (families.FamilyRules): a reference names another
file's declaration only by a path that leads there (rust_modules), through a glob import, or
as a `#[macro_export]` macro of its crate; a declaration re-exported under another name is
looked up by that name too. The module layout is kept per repository while its text files
stay the same (RustLayouts); the pure path rules are in processors/symbols/languages/rust.py."""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.symbols.languages.rust import ALIAS_MARK
from query_api.symbols.families import ByName, FamilyRules, language_family
from query_api.symbols.rust_modules import NAMESPACE_KIND, RustModules
from streams.stores.views.symbols import ReferenceRow, SymbolRow, SymbolViews

MACRO_EXPORT = "#[macro_export"  # in a macro's signature, with its attributes
RE_EXPORT_KIND = "ReExport"  # a stand-in: a name a module's `use` binds (add_stand_ins)
MAX_MODULES_ASKED = 8  # files of one answer whose `use` names stand for them


class RustLayouts:
    """Each repository's Rust module tree: the layout kept while its files stay the same (a
    lookup per file, as the file graph makes, resolves the same paths again), the files'
    imports read per answer."""

    def __init__(self, symbols: SymbolViews, read_text: Callable[[str, str], str | None]) -> None:
        self.symbols = symbols
        self.read_text = read_text
        # repo -> (its text files' version, its Rust module layout as last read)
        self._layouts: dict[str, tuple[tuple[int, int, float], RustModules]] = {}

    def for_answer(self, repo_id: str) -> RustModules:
        version = self.symbols.store.text_files_version(repo_id)
        known = self._layouts.get(repo_id)
        if known is None or known[0] != version:
            fresh = RustModules(self.symbols, repo_id, lambda p: self.read_text(repo_id, p))
            known = self._layouts[repo_id] = (version, fresh)
        return known[1].for_another_answer()


class RustFamily(FamilyRules):
    """Rust for one answer; the module tree is made when first asked about."""

    def __init__(self, make_modules: Callable[[], RustModules]) -> None:
        super().__init__("rust")
        self._make_modules = make_modules
        self._modules: RustModules | None = None
        # (path, name, qualified) -> whether it names one of the targets of its name
        self._answers: dict[tuple[str, str, str | None], bool] = {}

    @property
    def modules(self) -> RustModules:
        if self._modules is None:
            self._modules = self._make_modules()
        return self._modules

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool | None:
        key = (ref.path, ref.name, ref.qualified)  # a file names the same path again and again
        if key not in self._answers:
            rust_targets = [s for s in targets if language_family(s.path) == self.family]
            self._answers[key] = self._means(ref, rust_targets)
        return self._answers[key]

    def _means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool:
        """The use leaf or path the extractor qualified `ref` with, or the name (or path)
        after a glob import (`use crate::flags::defs::*`), leads to one of `targets`. A bare
        name otherwise is the file's own, the prelude's or a method's; only a
        `#[macro_export]` macro is seen by name, in the crate that defines it (another
        `macro_rules!` is its file's, as a `write!` helper beside std's is), and by a path
        to its crate's root from anywhere (`use anyhow::bail` in a test)."""
        if not targets:
            return False
        rust = self.modules
        written = ref.qualified or ref.name
        # through a glob, `Foo::new()` after `use crate::a::*` is `crate.a.Foo.new` (unless
        # the file declares a `Foo` of its own)
        paths = [written] if ref.qualified else []
        paths += rust.through_globs(ref.path, written)
        if any(rust.declares(path, ref.path, targets) for path in paths):
            return True
        macros = [s for s in targets if MACRO_EXPORT in s.signature]
        own_root = rust.crates.crate_root(ref.path)
        return any(
            rust.crates.crate_root(s.path) == own_root is not None
            or any(rust.names_at_crate_root(ref.path, path, s) for path in paths)
            for s in macros
        )

    def imported_modules(self, path: str, modules: list[str]) -> list[str]:
        """A use leaf as the file it leads to (rust_modules)."""
        return self.modules.imported_files(path, modules)

    def add_aliases(self, asked: set[str], by_name: ByName) -> None:
        """A declaration a module above its file re-exports under another name is looked up
        by that name too (rust_modules.renamed_reexports)."""
        paths = sorted(p for p in asked if language_family(p) == self.family)
        for path in paths:
            for alias, declared in self.modules.renamed_reexports(path):
                rows = [s for s in by_name.get(declared, []) if s.path == path]
                if rows and alias != declared:
                    by_name.setdefault(alias, []).extend(rows)

    def add_stand_ins(self, asked: list[str], by_name: ByName) -> None:
        """A name a module binds by `use` (`pub use self::time::TimeFilter` in fd's
        src/filter/mod.rs, which declares only `mod`s) is the module's too: a file naming
        it through the module (`use crate::filter::TimeFilter`) uses the module, whose
        related said "dependents: none". The module stands for it, looked up like a member
        (a reference a path qualified); only a `use` leading to a declaration in the
        repository (not a module, not another crate's or std's name)."""
        rust = [p for p in asked if language_family(p) == self.family][:MAX_MODULES_ASKED]
        for path in rust:
            private = self._bound_privately(path)
            for written in self.modules.imports_of(path):
                entry, _, alias = written.partition(ALIAS_MARK)
                resolved = None if entry.endswith(".*") else self.modules.resolve(path, entry)
                if resolved is None or resolved[0] == path or not resolved[1]:
                    continue
                name = alias or entry.rpartition(".")[2]
                if name in private:
                    continue
                stand_in = SymbolRow(
                    self.modules.repo_id, path, name, name, RE_EXPORT_KIND, 0, 0, "", ""
                )
                by_name.setdefault(name, []).append(stand_in)

    def _bound_privately(self, path: str) -> frozenset[str]:
        """The names `path` binds only by a private `use` when no module is its child: no
        other file can name them through it (a glob re-export passes on public names only).
        QA on hyperium/hyper: io.rs's `use crate::ffi::size_t;` made every ffi file naming
        size_t (declared in ffi/mod.rs, which globs `pub use self::io::*`) its dependent."""
        declared = self.modules.symbols.symbols_of_file(self.modules.repo_id, path)
        if any(s.kind == NAMESPACE_KIND and s.start_line == s.end_line for s in declared):
            return frozenset()  # a `mod x;`: its child module sees the private names too
        public, private = use_bindings(self.modules.crates.read_text(path) or "")
        return private - public


_USE = re.compile(r"^[ \t]*(pub\b(?:\s*\([^)]*\))?\s*)?use\s+([^;]+);", re.MULTILINE)
_GROUP = re.compile(r"[{},]")


def use_bindings(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(names bound by `pub use`, names bound by private `use`) in a Rust file's text: each
    entry's alias or last segment (`use super::task::{hyper_context, X as Y};` binds
    hyper_context and Y)."""
    public: set[str] = set()
    private: set[str] = set()
    for found in _USE.finditer(text):
        bound = public if found.group(1) else private
        for piece in _GROUP.split(found.group(2)):
            piece = " ".join(piece.split())
            if not piece or piece.endswith("::") or piece.endswith("*"):
                continue
            head, _, alias = piece.partition(" as ")
            bound.add((alias or head.rpartition("::")[2]).strip())
    return frozenset(public), frozenset(private)
