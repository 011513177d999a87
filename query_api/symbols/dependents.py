"""Who depends on what a file declares: `dependents` and `tests` of repocontext_related and
repocontext_changed, resolved through the reverse reference index (bounded reads only).

Resolution, more precise than the reference's simple-name match:
- a reference the extractor qualified through an import (`pkg.mod.Name`) only matches a
  declaration in the same language family (TS/JS, C/C++, Java/Kotlin, else the language)
  whose fully-qualified name agrees with it (one ends with the other on a dot; in Python
  also a package's re-export, `shop.Name` for `shop.orders.Name`, a module's import of the
  name, `requests.utils.to_native_string` for `requests._internal_utils.to_native_string`
  where utils.py imports it (python_modules._through_modules), and an absolute import
  leaving out a folder of the path only when that folder is no package (`src`, not the
  `src.flask` that would make `json.dumps` mean flask's json); in TS/JS, whose fq names
  carry no module, the top-level declaration of the imported file, `src/orders.Name`, or
  of the file its re-exports lead to when it does not declare the name, the file named
  through a tsconfig path alias (`@/orders`) alike: js_modules);
- a TS/JS name imported from a package (`react`, no repository file) is matched by name;
- an unqualified reference matches by simple name (in Python only from a file that
  star-imports the declaring module: any other name is imported, hence qualified; in TS/JS
  only from a script without imports that is no bundle, or a `.d.ts` global), but only
  declarations that are module-level-ish (types, interfaces, enums, functions, other),
  never members: an
  unqualified `.save()` call says nothing about WHICH class's `save` it calls (so members'
  names are looked up with their qualified references only, and after the other names: a
  name every file calls cannot use up the lookup's bounds);
- what a function declares inside itself (a closure, a nested class) is no one else's
  dependency: another file cannot name it;
- a file that declares the name itself is taken to mean its own declaration, and so is a
  file whose package declares it (Go, Java, Kotlin: a package is a directory); in Go only a
  package-level declaration counts (a member is only ever selected: `c.Params`), a bare
  name means only its own package's declarations, and a qualified one only those of the
  package its import path names where a go.mod says the module (go_family: the standard
  library's `errors.New` is no call of a repository's errors package), in Java and Kotlin those of
  its package in any source root or of a wildcard import (jvm_family);
- a Go file whose `//go:embed` directive embeds a file asked about (a template) is its
  dependent at file level (go_embeds);
- a JavaScript file importing a file asked about is its dependent at file level even where
  no reference names a declaration (`const context = require('./context')`), and so is a
  TypeScript file importing a barrel asked about (a file re-exporting: `export * from`,
  through a relative specifier or a tsconfig path alias: js_family), and a Python file
  importing a module or package asked about (`from requests.compat import urljoin`, a name
  compat.py imports itself; `import requests` of requests/__init__.py: python_modules);
- `{Name}Test(s)` / `Test{Name}` types count as tests in the same language family only, in
  Go from the declaring package's directory only (go_family.names_in_reach), in Java and
  Kotlin not from another package declaring a type of that name (jvm_family.names_in_reach),
  in TS/JS never (a test there imports what it tests: a dependent; the name is a fixture's).
Whether one reference means one of the declarations: reference_scope.ReferenceScope. Each
family's own rules are one FamilyRules object per answer (families.py; js_family,
python_modules, rust_family, go_family, jvm_family), in the table rules_for_answer builds.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterable

from processors.symbols.languages.js_ts import DEFAULT_EXPORT
from query_api.symbols.class_named_tests import class_named_tests
from query_api.symbols.families import (
    FILE_LEVEL,
    PACKAGE_IS_DIRECTORY,
    ByName,
    FamilyRules,
    Found,
    language_family,
)
from query_api.symbols.go_embeds import embedders
from query_api.symbols.go_family import GoFamily, named_test_functions, names_in_reach
from query_api.symbols.js_family import RE_EXPORT_KIND, JsFamily
from query_api.symbols.js_modules import JsModules
from query_api.symbols.js_test_helpers import calls_tests, unmarked_js
from query_api.symbols.jvm_family import JvmFamily
from query_api.symbols.jvm_family import names_in_reach as jvm_names_in_reach
from query_api.symbols.python_modules import PythonModules
from query_api.symbols.reference_scope import ReferenceScope
from query_api.symbols.rust_family import RustFamily, RustLayouts
from query_api.symbols.rust_modules import RustModules
from query_api.symbols.tested_by import names_subject, spelled_as, subject_of_test
from schemas.symbols import SymbolAt
from streams.stores.views.named_files import path_named_files
from streams.stores.views.read import get_content
from streams.stores.views.symbols import SymbolRow, SymbolViews

__all__ = [  # the file graph (query_api/retrieval) reads the families through this module
    "PACKAGE_IS_DIRECTORY",
    "DependentsResolver",
    "language_family",
]

TYPE_KINDS = frozenset({"Type", "Interface", "Enum"})
_RIVALLED = frozenset({"jvm", "rust"})  # families whose test types are weighed by rivals
# a JS/TS test by its marker, tsd's and TSTyche's type tests and Jazzer.js's fuzz tests too, as
# path_roles counts them (QA on middyjs/middy: `related packages/http-cors/index.js` listed
# index.tst.ts and index.fuzz.js as dependents, and users answers put them among the code)
_TEST_NAME = re.compile(
    r"(^test_.*\.py$|_test\.(py|go|rb|exs?)$|\.(test|spec|test-d|tst|fuzz)\.[cm]?[jt]sx?$"
    r"|(Tests?|Spec)\.(java|kt|cs|php|scala|swift)$|_spec\.rb$)"
)
_TEST_DIRS = frozenset({"test", "tests", "__tests__", "spec", "specs", "testing"})


def is_test_path(path: str) -> bool:
    parts = path.split("/")
    return bool(_TEST_NAME.search(parts[-1])) or any(p in _TEST_DIRS for p in parts[:-1])


CALLABLE_KINDS = frozenset({"Function", "Method"})
MAX_FOLDER_LOOKUP = 2_000  # paths a folder-name read returns before the exact check
MAX_CONVENTION_CHECKS = 64  # tests one answer checks against their other possible subjects


def outside_functions(declared: list[SymbolRow]) -> list[SymbolRow]:
    """The declarations another file can name: not those inside a function or method of the
    file (a closure's `wrapped_view`, a nested `def view` that a caller's `view(...)`
    parameter call would otherwise seem to reference)."""
    callables = {s.fq_name.split("(", 1)[0] for s in declared if s.kind in CALLABLE_KINDS}
    if not callables:
        return declared
    out = []
    for s in declared:
        scope = s.fq_name.split("(", 1)[0].rpartition(".")[0]
        while scope and scope not in callables:
            scope = scope.rpartition(".")[0]
        if not scope:
            out.append(s)
    return out


class DependentsResolver:
    """The dependents and tests of a set of declarations, over the symbol views."""

    def __init__(
        self, symbols: SymbolViews, read_text: Callable[[str, str], str | None] | None = None
    ) -> None:
        self.symbols = symbols
        # (repo, path) -> a file's text: tsconfig.json path aliases; without it, none
        self.read_text = read_text or (lambda _repo, _path: None)
        self.rust_layouts = RustLayouts(symbols, self.read_text)

    def rust_modules(self, repo_id: str) -> RustModules:
        """The repository's Rust module tree for one answer (rust_family.RustLayouts)."""
        return self.rust_layouts.for_answer(repo_id)

    def js_modules(self, repo_id: str) -> JsModules:
        """TS/JS module reads several answers over unchanged views may share (a file graph's
        build asks for every file's dependents: each answer reading the same modules, imports
        and declarations again took 6.5 s for zod's 620 files)."""
        return JsModules(self.symbols, repo_id, lambda path: self.read_text(repo_id, path))

    def rules_for_answer(self, repo_id: str, js: JsModules | None = None) -> dict[str, FamilyRules]:
        """The families with import rules of their own, each for one answer (in the order
        their aliases and stand-ins are added); the others use FamilyRules itself. `js`: the
        shared module reads (js_modules), a new answer's bounds on them."""
        return {
            "js": JsFamily(
                self.symbols, repo_id, lambda path: self.read_text(repo_id, path), modules=js
            ),
            "rust": RustFamily(lambda: self.rust_modules(repo_id)),
            "python": PythonModules(self.symbols, repo_id),
            "go": GoFamily(
                lambda path: self.read_text(repo_id, path),
                lambda paths: self.symbols.importers_of(repo_id, paths),
            ),
            "jvm": JvmFamily(
                lambda names: self.symbols.references_to(repo_id, names),
                lambda path: self.read_text(repo_id, path),
            ),
        }

    def dependents(
        self,
        repo_id: str,
        declared: list[SymbolRow],
        exclude: set[str],
        js: JsModules | None = None,
    ) -> list[SymbolAt]:
        """Symbols in other files that reference what `declared` declares (see module doc);
        `exclude`: the files asked about, whose own references are not dependents. At most
        MAX_PAIRS of them (families.Found.pairs); related pages them itself (related.py)."""
        found = self.dependents_found(repo_id, declared, exclude, js)
        return [SymbolAt(symbol=sym, path=p) for p, sym in found.pairs()]

    def dependents_found(
        self,
        repo_id: str,
        declared: list[SymbolRow],
        exclude: set[str],
        js: JsModules | None = None,
        *,
        whole_files: bool = True,
    ) -> Found:
        """The dependents, each file with all its symbols found. Names a bare reference may
        mean (types, functions) are looked up first and with all their references; members'
        names only with the references an import qualified. `whole_files`: the files of
        `exclude` are asked about, so what depends on a file as a whole (imports it as a
        module, embeds it, runs it) counts; not for the users of the declarations alone."""
        found = Found()
        if whole_files:
            for path in embedders(self.symbols, repo_id, exclude):  # a template it embeds
                found.add(path, FILE_LEVEL)
        scope = ReferenceScope(self.symbols, repo_id, self.rules_for_answer(repo_id, js))
        by_name = self._targets(scope, declared, exclude, whole_files)
        if not by_name:
            return found
        free = sorted(
            n
            for n, same in by_name.items()
            if any(scope.rules_of(s.path).matched_bare(s) for s in same)
        )
        members = sorted(set(by_name) - set(free))
        refs = self.symbols.references_to(repo_id, free + members, qualified_only=members)
        # only a name some other file references can be taken for its own declaration there:
        # a generated module's 30,000 names nobody calls are not looked up again
        referenced = {ref.name for ref in refs if ref.path not in exclude}
        scope.note_self_declared([name for name in free if name in referenced], exclude)
        for ref in refs:
            if ref.path in exclude or not scope.means(ref, by_name.get(ref.name, [])):
                continue
            found.add(ref.path, ref.symbol or FILE_LEVEL)
            scope.rules_of(ref.path).note_dependent(ref)
            if found.full:
                break
        for rules in list(scope.rules.values()):
            if not found.full:
                rules.more_dependents(exclude, by_name, found)
        for rules in list(scope.rules.values()) if whole_files else []:
            if not found.full:
                rules.file_dependents(exclude, by_name, found)
        return found

    def _targets(
        self,
        scope: ReferenceScope,
        declared: list[SymbolRow],
        exclude: set[str],
        whole_files: bool,
    ) -> ByName:
        """What a reference may name, by simple name: the declarations another file can name,
        under the other names their families give them too, and stand-ins for the files
        asked about (a TS/JS file's default export; a Python file as a module when the
        files are asked about as wholes)."""
        by_name: ByName = {}
        for s in outside_functions(declared):
            by_name.setdefault(s.name, []).append(s)
        families = list(scope.rules.values())
        for rules in families:
            rules.add_aliases(exclude, by_name)
        for rules in families:
            rules.add_stand_ins(sorted(exclude), by_name)
            if whole_files:
                rules.add_file_stand_ins(sorted(exclude), by_name)
        if not whole_files:
            _drop_other_re_exports(by_name, declared)
        if not whole_files and DEFAULT_EXPORT in by_name:
            _keep_defaults_of_top_level(by_name, declared)
            for rules in families:
                rules.narrow_stand_ins(by_name, declared)
        return by_name

    def imports(self, repo_id: str, path: str, js: JsModules | None = None) -> list[str]:
        """The modules `path` imports, as its family's rules name them: in TS/JS a path
        alias as the repository module it names (relative specifiers already are); in Python
        `from . import x` as the module x or, when x is no module, its package
        (python_modules); in Rust a use leaf as the file it leads to (rust_modules)."""
        modules = self.symbols.imports_of_file(repo_id, path)
        if not modules:
            return modules
        family = language_family(path)
        rules = self.rules_for_answer(repo_id, js).get(family) or FamilyRules(family)
        return rules.imported_modules(path, modules)

    def tests(
        self,
        repo_id: str,
        declared: list[SymbolRow],
        dependents: Iterable[SymbolAt],
        exclude: set[str],
        subject: str | None = None,
    ) -> list[SymbolAt]:
        """The tests (tests_found), at most MAX_PAIRS of them (families.Found.pairs)."""
        found = self.tests_found(repo_id, declared, dependents, exclude, subject)
        return [SymbolAt(symbol=sym, path=p) for p, sym in found.pairs()]

    def tests_found(
        self,
        repo_id: str,
        declared: list[SymbolRow],
        dependents: Iterable[SymbolAt],
        exclude: set[str],
        subject: str | None = None,
    ) -> Found:
        """`{Name}Test(s)` / `Test{Name}` types, dependents that live in test files, and the
        test files named for `subject` (named_tests)."""
        names = sorted({s.name for s in declared if s.kind in TYPE_KINDS})
        wanted = [f"{n}{suffix}" for n in names for suffix in ("Test", "Tests")]
        wanted += [f"Test{n}" for n in names]
        families = {language_family(s.path) for s in declared}
        found = Found()
        rivals: list[SymbolRow] | None = None  # the types named as `declared` are (jvm, rust)
        for s in self.symbols.symbols_named(repo_id, wanted):
            if rivals is None and language_family(s.path) in _RIVALLED:
                rivals = [
                    r for r in self.symbols.symbols_named(repo_id, names) if r.kind in TYPE_KINDS
                ]
            if (
                s.path not in exclude
                and s.kind in TYPE_KINDS
                and language_family(s.path) in families
                and _named_test_in_reach(s, declared, rivals or [])
            ):
                found.add(s.path, s.fq_name)
        for d in dependents:
            if is_test_path(d.path):
                found.add(d.path, d.symbol)
        if subject is None:
            return found
        named = [path for path in self.named_tests(repo_id, subject) if path not in exclude]
        if language_family(subject) == "go":
            self._go_test_functions(repo_id, subject, declared, found, named)
        for path in named:
            if path not in found:  # its references say more
                found.add(path, FILE_LEVEL)
        return found

    def _go_test_functions(
        self,
        repo_id: str,
        subject: str,
        declared: list[SymbolRow],
        found: Found,
        named: list[str],
    ) -> None:
        """The test functions named for `subject`'s declarations (go_family.
        named_test_functions) in the test files of its folder found so far or named for it."""
        folder = posixpath.dirname(subject)
        paths = sorted(
            p
            for p in {*found.files(), *named}
            if p.endswith("_test.go") and posixpath.dirname(p) == folder
        )
        if not paths:
            return
        tests = self.symbols.symbols_of_files(repo_id, paths)
        for path, symbol in named_test_functions(declared, tests):
            found.add(path, symbol)

    def named_tests(self, repo_id: str, subject: str) -> list[str]:
        """Test files named for `subject` by the naming convention (spec 3.6): those whose
        subject is `subject` by tested_by.subject_of_test, the rule search's
        `tested-by:` reason reads too. got's test/create.ts exercises `got.create` through
        the package's index, so no reference of it names what create.ts declares; koa's
        `__tests__/request/host.test.js` tests lib/request.js through a helper. Candidates
        are read by the names `subject` is known by (a path word, a folder's name), at most
        MAX_FOLDER_LOOKUP each; at most MAX_CONVENTION_CHECKS of those that may test it are
        checked against the other files their names may mean (one path read each)."""
        maybe: dict[str, None] = {}
        for name in spelled_as(subject):  # `OptionGroup`: its words, as paths hold them
            for path in [
                *self.symbols.files_with_path_words(repo_id, name, MAX_FOLDER_LOOKUP),
                *self.symbols.files_in_folder_named(repo_id, name, MAX_FOLDER_LOOKUP),
            ]:
                if path != subject and names_subject(path, subject) is not None:
                    maybe[path] = None

        def lookup(name: str) -> list[str]:
            return self.symbols.store.read(
                lambda c: path_named_files(c, repo_id, name, as_written=False)
            )

        def depending(declared: list[SymbolRow]) -> list[str]:
            found = self.dependents_found(repo_id, declared, {subject}, whole_files=False)
            return list(found.files())

        checked = sorted(maybe)[:MAX_CONVENTION_CHECKS]
        imports = functools.partial(self.symbols.imports_of_file, repo_id)
        named = [path for path in checked if subject_of_test(path, lookup, imports) == subject]
        # a test named for a class of `subject`, not for its file (class_named_tests)
        for path in class_named_tests(self.symbols, repo_id, subject, depending):
            if path not in named:
                named.append(path)
        return self._declaring_tests(repo_id, named)

    def _declaring_tests(self, repo_id: str, paths: list[str]) -> list[str]:
        """`paths` less the Python files declaring names but no test: a module of settings
        a test loads (gunicorn's tests/config/test_cfg.py: `bind = ...`, `workers = 3`) is
        named as a test is, and tests nothing (pytest and unittest run only `test*`
        functions and methods of `Test*` classes). QA on benoitc/gunicorn: `tests for
        reload_extra_files` placed three such files above config.py, holding nothing asked.
        A JS/TS helper beside the tests is left out too (_js_helper)."""
        paths = [path for path in paths if not self._js_helper(repo_id, path)]
        python = [path for path in paths if path.endswith(".py")]
        if not python:
            return paths
        declared = self.symbols.symbols_of_files(repo_id, python)
        return [
            path
            for path in paths
            if path not in declared or any("test" in row.name.casefold() for row in declared[path])
        ]

    def _js_helper(self, repo_id: str, path: str) -> bool:
        """Whether `path` is an unmarked JS/TS file of a test folder calling no test
        function: a helper the tests share (js_test_helpers)."""
        if not unmarked_js(path):
            return False
        row = self.symbols.store.read(lambda c: get_content(c, repo_id, path))
        return row is not None and not calls_tests(row.body)


def _named_test_in_reach(
    test: SymbolRow, declared: list[SymbolRow], rivals: list[SymbolRow]
) -> bool:
    """Whether a test type named for one of `declared` may test it where its family's rule
    says (Go: the declaring package's directory; Java, Kotlin: not from a package declaring
    a rival of that name, jvm_family.names_in_reach; Rust: not when another file declares a
    type of that name, the test double's name then saying nothing of which it stands in for
    (a unit test using the file is listed by its use, rust_tests.unit_tests_using): QA on
    eza-community/eza listed every src/output/render/*.rs's `TestColours` among the tests of
    render/git.rs, each of them or its sibling declaring a `Colours` trait; TS/JS: never, a
    test imports what it
    tests and is its dependent, while a `TestService` class is a fixture: feathers'
    dispatch.test.ts was a test of transport-commons' src/client.ts, which declares
    `Service`, and imports nothing of it)."""
    family = language_family(test.path)
    if family == "js":
        return False
    if family == "go":
        return names_in_reach(test, declared)
    if family == "jvm":
        return jvm_names_in_reach(test, declared, rivals)
    if family == "rust":  # `struct TestColours`, and another file's `trait Colours` too
        own = {s.path for s in declared}
        return not any(r.path not in own and test.name in _test_names(r.name) for r in rivals)
    return True


def _test_names(name: str) -> tuple[str, ...]:
    """The names a test type named for `name` has (`TestColours`, `ColoursTest(s)`)."""
    return (f"Test{name}", f"{name}Test", f"{name}Tests")


def _drop_other_re_exports(by_name: ByName, declared: list[SymbolRow]) -> None:
    """Of the names the files asked about re-export or bind from elsewhere (a TS barrel's
    `export type { X } from "./types"`, a Rust `pub use`: their stand-ins), keep only those
    the declarations looked up are called: a file importing another name through the file
    uses the file, not them. QA on unjs/unstorage: `what calls normalizeKey` marked redis.ts,
    which imports only `DriverDependencies` from the file declaring normalizeKey."""
    names = {s.name for s in declared}
    for name in list(by_name):
        rows = [s for s in by_name[name] if s.kind != RE_EXPORT_KIND or name in names]
        if rows:
            by_name[name] = rows
        else:
            del by_name[name]


def _keep_defaults_of_top_level(by_name: ByName, declared: list[SymbolRow]) -> None:
    """Of the TS/JS default exports standing for the files asked about, keep those of files
    where a declaration looked up is top-level: a member (`ValidationError.formatError`) is
    never a file's default export, so an import of the class is no use of it. QA on
    jquense/yup: `what calls formatError` marked every file importing ValidationError."""
    top_level = {s.path for s in declared if "." not in s.fq_name}
    kept = [s for s in by_name[DEFAULT_EXPORT] if s.kind != "Other" or s.path in top_level]
    if kept:
        by_name[DEFAULT_EXPORT] = kept
    else:
        del by_name[DEFAULT_EXPORT]
