"""Go's rules for the dependents resolver (families.FamilyRules).

Go names another package's declarations only through an import (`gin.New()`, qualified by
the extractor: processors/symbols/languages/go.py); a bare name is its own package's, and a
package is a directory. So a reference the extractor left unqualified names a declaration of
the files asked about only from a file in the same directory: `validator.New()` in another
package, whose import the extractor could not bind, is not a call of this package's `New`.
(A dot import, `import . "x"`, would make another package's names bare too; it is rare
outside tests of external packages and is not followed.)

A qualified reference is the import path, dotted, and the name (`gorm.io.gorm.schema.Parse`);
the declaration's fq name is its package clause and the name (`schema.Parse`). Where the path's
last element is not the package's name by the Go convention (processors' `package_name`: a
major-version element, `github.com/gofiber/fiber/v3` for package `fiber`, or a `.v3` / `go-`
/ `-go` dress), the path is matched as ending in that name (`github.com.gofiber.fiber.Ctx`),
else no other package of a `/vN` module could depend on its root package.

Where the declaring package's go.mod is indexed, a qualified reference means it only when its
import path is the package's: the module path, then the package's folder under the module
(`github.com.go-kratos.kratos.v3.errors.New` for errors/errors.go's `New` in module
`github.com/go-kratos/kratos/v3`). By the package's name alone, the standard library's
`errors.New` meant kratos' own errors package in 20 files, and `google.golang.org/grpc`'s
`NewClient` its transport/grpc. Without a go.mod (or under vendor/) the name decides.

A member (a struct's field, a method) is never named by its bare name either: `c.Params` is a
selector, so a file declaring a field `Params` still means the package's type `Params` when it
writes `Params`, and so do the other files of its package. Only a package-level declaration
(`pkg.Name`: the package clause is one identifier) counts as a file's own.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Callable, Mapping

from processors.symbols.languages.go import package_name
from query_api.symbols.families import (
    FILE_LEVEL,
    ByName,
    FamilyRules,
    Found,
    Imports,
    language_family,
)
from query_api.symbols.go_modules import GO_MOD, module_path
from streams.stores.views.symbols import ReferenceRow, SymbolRow


def conventional(qualified: str) -> str:
    """`qualified` (a dotted import path and a name) with the path's last element as the
    package's conventional name: `github.com.gofiber.fiber.Ctx` for
    `github.com.gofiber.fiber.v3.Ctx`, `gopkg.in.yaml.Marshal` for `gopkg.in.yaml.v3.Marshal`.
    The dots of the path are slashes here, which package_name reads alike."""
    path, _, name = qualified.rpartition(".")
    if not path:
        return qualified
    elements = path.split(".")
    conventional_name = package_name("/".join(elements))
    if len(elements) > 1 and elements[-1] != conventional_name == elements[-2]:  # `fiber.v3`
        elements.pop()
    elements[-1] = conventional_name
    return ".".join([*elements, name])


def package_level(s: SymbolRow) -> bool:
    """Whether `s` is declared at package level (`gin.New`, not `gin.Context.Param`)."""
    return s.fq_name.split("(", 1)[0].count(".") == 1


class GoFamily(FamilyRules):
    """Go for one answer (see the module doc)."""

    def __init__(
        self,
        read_text: Callable[[str], str | None] | None = None,
        importers_of: Callable[[list[str]], list[str]] | None = None,
    ) -> None:
        """`read_text`: a repository file's text (its go.mod files), None when not indexed;
        `importers_of`: the files importing one of these import paths, as written."""
        super().__init__("go")
        self.read_text = read_text or (lambda _path: None)
        self.importers_of = importers_of or (lambda _paths: [])
        self._modules: dict[str, tuple[str, str] | None] = {}  # folder -> its module
        self._packages: dict[str, str | None] = {}  # folder -> its dotted import path

    def means(self, ref: ReferenceRow, targets: list[SymbolRow]) -> bool | None:
        """A qualified reference as FamilyRules matches it, or else with its path ending in
        the package's conventional name, of a package whose import path it names where the
        package's module is known (see the module doc)."""
        if ref.qualified is not None:
            targets = [s for s in targets if self._imported_as(ref.qualified, s)]
            if any(self._named_by_import_path(ref.qualified, s) for s in targets):
                return True
        answer = super().means(ref, targets)
        if answer is not False or ref.qualified is None:
            return answer
        named = conventional(ref.qualified)
        if named == ref.qualified:
            return False
        return super().means(dataclasses.replace(ref, qualified=named), targets)

    def _imported_as(self, qualified: str, s: SymbolRow) -> bool:
        """Whether `qualified` may name `s` through an import of its package: another
        language's declaration is FamilyRules' to judge, and a package whose module is
        unknown is judged by its name."""
        if language_family(s.path) != self.family:
            return True
        package = self.package_path(posixpath.dirname(s.path))
        return package is None or qualified.startswith(package + ".")

    def _named_by_import_path(self, qualified: str, s: SymbolRow) -> bool:
        """Whether `qualified` is `s`'s package's import path, as its go.mod says it, and
        `s`'s name below its package clause: a package need not be named for its path
        (bubbletea's `charm.land/bubbletea/v2` is `package tea`, its fq names `tea.Program`,
        which neither the path nor its conventional name `bubbletea` ends with)."""
        if language_family(s.path) != self.family:
            return False
        package = self.package_path(posixpath.dirname(s.path))
        if package is None:
            return False
        _clause, _, below = s.fq_name.split("(", 1)[0].partition(".")
        return bool(below) and qualified == f"{package}.{below}"

    def package_path(self, folder: str) -> str | None:
        """The dotted import path of the package in `folder` (`github.com.x.kit.v3.errors`),
        None when no indexed go.mod above it says its module or it is vendored."""
        written = self.import_path(folder)
        return written.replace("/", ".") if written is not None else None

    def import_path(self, folder: str) -> str | None:
        """The import path of the package in `folder` as code writes it
        (`github.com/x/kit/v3/errors`); None as for package_path."""
        if folder not in self._packages:
            module = self._module_of(folder)
            path = None
            if module is not None and "vendor" not in folder.split("/"):
                root, module_path = module
                below = folder[len(root) :].strip("/")
                path = "/".join(p for p in (module_path, below) if p)
            self._packages[folder] = path
        return self._packages[folder]

    def file_dependents(self, exclude: set[str], by_name: ByName, found: Found) -> None:
        """A file importing the package of an asked file that declares `init()` depends on
        that file at file level: the import runs it, with or without a reference (a blank
        `import _ ".../encoding/json"` registers kratos' JSON codec). Files of a package
        without init() are depended on through their declarations only: an importer of
        the package may use none of this file's."""
        initialising = {
            s.path
            for s in by_name.get("init", [])
            if s.path in exclude and s.kind == "Function" and package_level(s)
        }
        paths = sorted(
            {p for p in map(self.import_path, map(posixpath.dirname, initialising)) if p}
        )
        if not paths:
            return
        for path in self.importers_of(paths):
            if path in exclude or path in found or language_family(path) != self.family:
                continue
            found.add(path, FILE_LEVEL)
            if found.full:
                return

    def _module_of(self, folder: str) -> tuple[str, str] | None:
        """(its folder, its module path) of the nearest go.mod at or above `folder`."""
        if folder not in self._modules:
            text = self.read_text(posixpath.join(folder, GO_MOD))
            module = module_path(text) if text is not None else None
            if module is not None:
                self._modules[folder] = (folder, module)
            elif folder:
                self._modules[folder] = self._module_of(posixpath.dirname(folder))
            else:
                self._modules[folder] = None
        return self._modules[folder]

    def in_scope(self, ref: ReferenceRow, imports_of: Imports, targets: list[SymbolRow]) -> bool:
        """A bare name means a declaration of the referencing file's own package only."""
        folder = posixpath.dirname(ref.path)
        return any(posixpath.dirname(s.path) == folder for s in targets)

    def names_bare(self, s: SymbolRow) -> bool:
        """Only a package-level declaration is named by its bare name."""
        return package_level(s)

    def matched_bare(self, s: SymbolRow) -> bool:
        """A package-level var or const (a Field) too: the package's other files read it
        bare (`return DefaultTimeout`; the extractor leaves locals out)."""
        return super().matched_bare(s) or (s.kind == "Field" and package_level(s))


_TEST_FUNCTION = re.compile(r"(Test|Benchmark|Example|Fuzz)([^a-z].*)?")


def by_test_function(symbols: list[str]) -> list[str]:
    """A Go test file's symbols as the tests they belong to: a declaration inside a test
    function (a table-driven test's struct fields, `gin.TestNew.args.md`) is named by that
    function, and one inside another listed symbol by that symbol; order kept, each once.
    The fields are no tests of their own, and listing them beside their function cost as
    many tokens again (kratos' metadata_test.go: 15 of 29 symbols)."""
    listed = set(symbols)
    out: dict[str, None] = {}
    for symbol in symbols:
        package, _, rest = symbol.partition(".")
        parts = rest.split(".")
        for i in range(1, len(parts)):
            head = f"{package}.{'.'.join(parts[:i])}"
            if head in listed or (i == 1 and _TEST_FUNCTION.fullmatch(parts[0])):
                symbol = head
                break
        out[symbol] = None
    return list(out)


def named_test_functions(
    declared: list[SymbolRow], test_files: Mapping[str, list[SymbolRow]]
) -> list[tuple[str, str]]:
    """(path, fq name) of the test functions of `test_files` named for a package-level
    declaration of `declared`: `Test<Name>` or `Test<Name>_<case>` (Benchmark, Example and
    Fuzz alike), the name's first letter upper-cased as `go test` requires of what follows
    `Test` (bubbletea's TestCursedRenderer_mouseVsFlush tests `cursedRenderer` through
    NewProgram, naming none of cursed_renderer.go's declarations). `test_files`: the test
    files of the declaring package's folder that test the file, so that a name shared with
    another file's declaration does not pull in an unrelated test."""
    names = {s.name[:1].upper() + s.name[1:] for s in declared if package_level(s) and s.name}
    out: list[tuple[str, str]] = []
    for path, rows in test_files.items():
        for row in rows:
            test = _TEST_FUNCTION.fullmatch(row.name)
            if row.kind != "Function" or test is None or not test.group(2):
                continue
            if test.group(2).split("_", 1)[0] in names:
                out.append((path, row.fq_name))
    return out


def names_in_reach(test: SymbolRow, declared: list[SymbolRow]) -> bool:
    """Whether a Go test type named for a declaration (`TestHook` for `Hook`) may test it:
    only from a file of the declaring package's directory, the one place a test names the
    package's declarations bare (`package slog` or `package slog_test`). Elsewhere it is a
    helper of another package's tests (logrus's root `type TestHook` is no test of
    hooks/slog's `Hook`); a test there that uses the package imports it, and is one of its
    tests as a dependent."""
    folder = posixpath.dirname(test.path)
    return any(posixpath.dirname(s.path) == folder for s in declared)
