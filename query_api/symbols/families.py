"""Language families for the dependents resolver: which languages name each other's
declarations through imports, and FamilyRules, the interface through which the generic
resolver (dependents.py, reference_scope.py) asks a family's own import rules. Each family
with rules of its own subclasses it in one module (js_family, python_modules, rust_family);
the others (C/C++, JVM, Go, ...) use FamilyRules itself: a reference qualified through an
import matches a declaration whose fully-qualified name agrees with it."""

from __future__ import annotations

import functools
from collections.abc import Callable

from processors.language import language_for_path
from streams.stores.views.symbols import ReferenceRow, SymbolRow

# languages whose code names each other's declarations through imports; a qualified
# reference never resolves to a declaration outside its own family (a Java import of
# `com.shop.OrderService` says nothing about a TypeScript `OrderService`)
_FAMILIES = {
    "typescript": "js",
    "javascript": "js",
    "c": "c",
    "cpp": "c",
    "java": "jvm",
    "kotlin": "jvm",
}

PACKAGE_IS_DIRECTORY = frozenset({"go", "jvm"})  # a package's files share one directory
UNQUALIFIED_MATCH_KINDS = frozenset({"Type", "Interface", "Enum", "Function", "Other"})
MAX_RESULTS = 500  # dependents/tests per answer
FILE_LEVEL = "<file>"  # the `symbol` of a reference made outside any declaration

Found = dict[tuple[str, str], None]  # (path, symbol) of the dependents found, in order
ByName = dict[str, list[SymbolRow]]  # what a reference may name, by its simple name
Imports = Callable[[str], list[str]]  # a file's import entries


@functools.lru_cache(maxsize=1 << 16)  # asked per reference and target, many times a path
def language_family(path: str) -> str:
    language = language_for_path(path)
    return _FAMILIES.get(language, language)


_COMPANION = ".Companion."


def qualified_match(qualified: str, fq_name: str) -> bool:
    """`pkg.mod.Name` vs `src.pkg.mod.Name` (or `billing.Charge` vs `x.com/billing.Charge`).
    A Kotlin unnamed companion object's member (`okio.ByteString.Companion.of`) is called
    through its class (`ByteString.of`): either spelling matches."""
    fq = fq_name.split("(", 1)[0]
    if qualified == fq or fq.endswith("." + qualified) or qualified.endswith("." + fq):
        return True
    if _COMPANION in fq and _COMPANION not in qualified:
        return qualified_match(qualified, fq.replace(_COMPANION, ".", 1))
    return False


class FamilyRules:
    """One language family's import rules for one answer; this base is the rule of the
    families without rules of their own. `family` names the family, `package_is_directory`
    says that a package's files share one directory (Go, Java, Kotlin), so a file whose
    package declares a name means that declaration."""

    def __init__(self, family: str) -> None:
        self.family = family
        self.package_is_directory = family in PACKAGE_IS_DIRECTORY

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool | None:
        """Whether `ref` names one of `targets` (declarations of any family sharing its
        simple name); None: decide by the simple name (ReferenceScope.means_unqualified)."""
        if ref.qualified is None:
            return None
        return any(
            language_family(s.path) == self.family and qualified_match(ref.qualified, s.fq_name)
            for s in targets
        )

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """Whether a name `ref` matches by its simple name can mean another file's
        declaration at all (`imports_of`: a file's import entries, read once per answer)."""
        return True

    def imported_modules(self, path: str, modules: list[str]) -> list[str]:
        """The modules `path` imports, as related.imports lists them (`modules`: its import
        entries, not empty)."""
        return modules

    def add_aliases(self, asked: set[str], by_name: ByName) -> None:
        """Add the names other files use for the declarations in `by_name` besides their own
        (`asked`: the files asked about)."""

    def add_stand_ins(self, asked: list[str], by_name: ByName) -> None:
        """Add what stands for the files asked about where a reference names a file rather
        than a declaration of it."""

    def note_dependent(self, ref: ReferenceRow) -> None:
        """`ref` was found to name one of the declarations (a first pass's answer)."""

    def more_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """Dependents that references to the names do not show, added to `found` (at most
        MAX_RESULTS in all)."""
