"""Language families for the dependents resolver: which languages name each other's
declarations through imports, and FamilyRules, the interface through which the generic
resolver (dependents.py, reference_scope.py) asks a family's own import rules. Each family
with rules of its own subclasses it in one module (js_family, python_modules, rust_family,
go_family); the others (C/C++, JVM, ...) use FamilyRules itself: a reference qualified through
an import matches a declaration whose fully-qualified name agrees with it."""

from __future__ import annotations

import functools
import posixpath
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
MAX_FILES = 500  # dependent (or test) files per answer
MAX_PAIRS = 500  # symbol/path pairs per answer, shared out evenly over its files
FILE_LEVEL = "<file>"  # the `symbol` of a reference made outside any declaration
# what separates a module path's names where the language does not write a dot
_WRITTEN_SEPARATOR = {"php": "\\"}

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


class Found:
    """The dependents (or tests) of one answer: the symbols found in each file, bounded by
    files, not by pairs. A file referencing hundreds of the declarations (zod's core/api.ts
    names 165 of core/schemas.ts's) would otherwise use up a bound on pairs and cut files
    found later. The answer keeps MAX_FILES files, each with as many of its symbols as
    MAX_PAIRS allows when shared out evenly (never fewer than one)."""

    def __init__(self) -> None:
        self._by_path: dict[str, dict[str, None]] = {}

    def add(self, path: str, symbol: str) -> None:
        """Record that `symbol` in `path` is a dependent (no new file once full)."""
        symbols = self._by_path.get(path)
        if symbols is None:
            if self.full:
                return
            symbols = self._by_path[path] = {}
        symbols[symbol] = None

    @property
    def full(self) -> bool:
        return len(self._by_path) >= MAX_FILES

    def __contains__(self, path: object) -> bool:
        return path in self._by_path

    def __len__(self) -> int:
        """The files found."""
        return len(self._by_path)

    def files(self) -> dict[str, list[str]]:
        """Each file found with all its symbols, in name order (related pages them)."""
        return {path: sorted(symbols) for path, symbols in self._by_path.items()}

    def pairs(self) -> list[tuple[str, str]]:
        """(path, symbol), sorted, each file's symbols cut to the largest even share that
        keeps the answer within MAX_PAIRS (its first symbols in name order)."""
        share = even_share([len(s) for s in self._by_path.values()], MAX_PAIRS)
        return [
            (path, symbol)
            for path in sorted(self._by_path)
            for symbol in sorted(self._by_path[path])[:share]
        ]


def even_share(sizes: list[int], total: int) -> int:
    """The largest k >= 1 with sum(min(size, k)) <= total (k = the largest size if all fit)."""
    if sum(sizes) <= total:
        return max(sizes, default=1)
    low, high = 1, max(sizes)  # sum(min(size, high)) > total
    while high - low > 1:
        middle = (low + high) // 2
        if sum(min(size, middle) for size in sizes) <= total:
            low = middle
        else:
            high = middle
    return low


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

    def names_bare(self, s: SymbolRow) -> bool:
        """Whether code in `s`'s file (or, where a package is a directory, its package) names
        `s` by its bare name, so that a bare name there means `s`, not the files asked about
        (Go: not a member, which only a selector names)."""
        return True

    def same_package(self, folder: str, s: SymbolRow) -> bool:
        """Whether a file of `folder` is in `s`'s package, where a package is a directory
        (package_is_directory): its directory is that one."""
        return posixpath.dirname(s.path) == folder

    def matched_bare(self, s: SymbolRow) -> bool:
        """Whether a reference by the bare name may mean `s` (a type, a function), not only
        one an import qualified (a member's)."""
        return s.kind in UNQUALIFIED_MATCH_KINDS

    def imported_modules(self, path: str, modules: list[str]) -> list[str]:
        """The modules `path` imports, as related.imports lists them (`modules`: its import
        entries, not empty): as the language writes them where the extractor wrote them
        dotted (PHP's `App\\Models\\User`; a PHP name holds no dot)."""
        separator = _WRITTEN_SEPARATOR.get(self.family)
        if separator is None:
            return modules
        return [module.replace(".", separator) for module in modules]

    def add_aliases(self, asked: set[str], by_name: ByName) -> None:
        """Add the names other files use for the declarations in `by_name` besides their own
        (`asked`: the files asked about)."""

    def add_stand_ins(self, asked: list[str], by_name: ByName) -> None:
        """Add what stands for the files asked about where a reference names a file rather
        than a declaration of it."""

    def add_file_stand_ins(self, asked: list[str], by_name: ByName) -> None:
        """Add what stands for the files asked about as wholes (a Python module imported as
        a name): a dependency on the file, not on any one declaration of it, so only when
        the files themselves are asked about (related), not the users of a declaration."""

    def narrow_stand_ins(self, by_name: ByName, declared: list[SymbolRow]) -> None:
        """Drop the stand-ins that cannot mean one of `declared`, the declarations whose users
        are asked for (not the files as wholes)."""

    def note_dependent(self, ref: ReferenceRow) -> None:
        """`ref` was found to name one of the declarations (a first pass's answer)."""

    def more_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """Dependents that references to the names do not show, added to `found` (until it
        is full)."""

    def file_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """Files depending on the files of `exclude` as wholes (importing them, running
        them), added to `found` (until it is full); only when those files are asked about,
        as add_file_stand_ins."""
