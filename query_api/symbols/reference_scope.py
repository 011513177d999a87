"""Whether a reference names one of the declarations asked about, for the dependents
resolver (dependents.py): ReferenceScope asks the referencing file's language family
(families.FamilyRules, one object per family for one answer) and matches the rest by simple
name."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from query_api.symbols.families import FamilyRules, language_family
from streams.stores.views.symbols import ReferenceRow, SymbolRow, SymbolViews


class ReferenceScope:
    """What one dependents lookup knows about the referencing files, each fact read once:
    a file's language family and imports, its language family's import rules (`rules`, by
    family; a family without an entry gets FamilyRules' own), and which files declare (or
    whose package declares) an unqualified name themselves."""

    def __init__(
        self, symbols: SymbolViews, repo_id: str, rules: Mapping[str, FamilyRules]
    ) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self.rules = dict(rules)
        self._family: dict[str, str] = {}  # path -> language family
        self._imports: dict[str, list[str]] = {}  # path -> the modules it imports
        self._self_declared: set[tuple[str, str]] = set()  # (path or "dir/", name)

    def rules_of(self, path: str) -> FamilyRules:
        """The import rules of `path`'s language family."""
        family = self.family_of(path)
        if family not in self.rules:
            self.rules[family] = FamilyRules(family)
        return self.rules[family]

    def family_of(self, path: str) -> str:
        if path not in self._family:
            self._family[path] = language_family(path)
        return self._family[path]

    def note_self_declared(self, free: list[str], exclude: set[str]) -> None:
        """A file declaring an unqualified name itself means its own declaration; so does a
        file whose package (Go, Java, Kotlin: its directory) declares it in another file."""
        for s in self.symbols.symbols_named(self.repo_id, free):
            rules = self.rules_of(s.path)
            if s.path not in exclude and rules.names_bare(s):
                self._self_declared.add((s.path, s.name))
                if rules.package_is_directory:
                    self._self_declared.add((posixpath.dirname(s.path) + "/", s.name))

    def imports_of(self, path: str) -> list[str]:
        if path not in self._imports:
            self._imports[path] = self.symbols.imports_of_file(self.repo_id, path)
        return self._imports[path]

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool:
        """Whether `ref` names one of `targets` (declarations sharing its simple name): as
        its family's rules say, else by the simple name."""
        answer = self.rules_of(ref.path).means(ref, targets)
        return self.means_unqualified(ref, targets) if answer is None else answer

    def means_unqualified(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool:
        """A name matched by its simple name: in scope (its family's rules say whether a name
        of the file can mean another file's at all), not declared by the referencing file or
        its package (unless one of `targets` is that package's too: Go's `isReadOnly`
        declared once per build tag, in readonly.go and readonly_strict.go, is one name of
        the package, and a call of it calls either; so is a Java class of a multi-release
        jar, src/main/java16/retrofit2/DefaultMethodSupport.java beside
        src/main/java/retrofit2/'s), and declared module-level-ish in the same family."""
        rules = self.rules_of(ref.path)
        family = rules.family
        folder = posixpath.dirname(ref.path)
        return (
            rules.in_scope(ref, self.imports_of, targets)
            and (ref.path, ref.name) not in self._self_declared
            and (
                not rules.package_is_directory
                or (folder + "/", ref.name) not in self._self_declared
                or any(rules.same_package(folder, s) for s in targets)
            )
            and any(
                self.rules_of(s.path).matched_bare(s) and self.family_of(s.path) == family
                for s in targets
            )
        )
