"""Which source file a test file tests by the naming convention (spec 3.6): the one rule
behind both related's `tests` (dependents.DependentsResolver.named_tests) and search's
`tested-by:<test>` reason (query_api/retrieval/subjects.py), so that a test search places
under a file is one related lists for it, and no other file's.

A test names its subject by its own name without the test marker (`fr.test.ts` -> `fr.ts`,
`test_utils.py` -> `utils.py`: path_roles.subject_name; a file in a test folder without a
marker by its name, `test/create.ts`, but for Python, whose runners collect only marked files,
by nothing: `tests/base.py` is a helper), or by the folder below its test folder that it is in
(koa's `__tests__/request/host.test.js` tests `lib/request.js`). A module's index file
(`index.ts`, `__init__.py`, `mod.rs`) is named both as itself (`src/adapter/index.test.ts`)
and by its folder's name (`test/adapter.test.ts` tests `src/adapter/index.ts`).

Where the subject may live (path_roles.home_of_test): a test beside its code tests a file of
its own folder; one in a test folder a file under the folders above the test folder (its
home), or beside that home (zod's `v4/core/tests/locales/fr.test.ts` and `v4/locales/fr.ts`),
whose folders end with the ones between the test folder and the name (`test/adapter/bun/
index.test.ts` tests `src/adapter/bun/index.ts`, not `src/index.ts`). Of the files that
qualify, the subject is the one named by the test's own name before one named by its folder,
then the nearest by path: the most leading folders shared with the test, the shorter path,
the first by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from processors.path_roles import Role, home_of_test, role_of, subject_name
from query_api.symbols.families import language_family

INDEX_STEMS = frozenset({"index", "mod", "__init__"})
SOURCE_FOLDER = "src"  # a test project's source folder below its test folder (_mirrored)
# test folders that hold data the tests read, no test project (_mirrored)
_TEST_DATA_DIRS = frozenset(
    {"fixtures", "__fixtures__", "testdata", "__snapshots__", "__mocks__", "test-utils",
     "testutil", "testutils"}
)  # fmt: skip
# Python's runners (pytest's test_*.py and *_test.py, unittest's test*.py) collect only marked
# files: an unmarked .py file in a test folder is a helper (marshmallow's tests/base.py holds
# the schemas the tests share), and tests no source file of its name (src/marshmallow/base.py)
PYTHON_SUFFIX = ".py"
# what a folder's module file is called, by the test's extension (a folder named by a test)
_FOLDER_FILES = {
    ".py": ("__init__",),
    ".rs": ("mod",),
}
_JS_FOLDER_FILES = ("index",)
# a Rust integration test in a crate's tests/ folder named for its module (`test_glob.rs`),
# as mitsuhiko/insta names them: Cargo compiles each file there, marked or not (marked_subject)
_RUST_TEST_PREFIX = "test_"
_RUST = ".rs"
_TYPE_TEST = ".test-d."  # a type test's marker (tsd's, Vitest's typecheck): `store.test-d.ts`
# a test folder named with a qualifier, as path_roles reads one (`test-dts`, `types-test`)
_QUALIFIED_TEST_DIR = re.compile(r"^(tests?[-_].+|.+[-_]tests?)$", re.IGNORECASE)
_JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs")

# folders sorting tests by their kind (`test/functional/validation-error.spec.ts`), which
# mirror no source folder: QA on typestack/class-validator, whose test/functional/ specs were
# the tests of no file
_TEST_KINDS = frozenset(
    {"unit", "units", "integration", "functional", "acceptance", "regression", "smoke"}
)

Lookup = Callable[[str], list[str]]  # a file name or tail (`adapter/index.ts`) -> indexed paths
Imports = Callable[[str], Sequence[str]]  # a file -> the modules it imports, as written


@dataclass(frozen=True, slots=True)
class Naming:
    """How one test file names its subject: a name (casefolded, no extension) and the
    folders the subject's own folders must end with; `by_folder`: named by a folder."""

    name: str
    tail: tuple[str, ...]
    by_folder: bool


def namings(test: str) -> list[Naming]:
    """The ways `test` names a subject: its own name, then the folder it is in below its
    test folder (of a test project's tree, below its source folder: _mirrored, for a file
    its name marks a test: an unmarked one there, test/fixtures/app/src/utils.ts, is the
    project's own code)."""
    _home, tail = _home_of(test)
    marked = marked_subject(test)
    if marked is not None:
        _project, tail = _mirrored(tail)
    while tail and tail[0].lower() in _TEST_KINDS:  # `test/functional/`: no source folder
        tail = tail[1:]
    if marked is None and test.endswith(PYTHON_SUFFIX):
        return []  # a helper beside the tests (`tests/base.py`): pytest collects no such file
    own = _stem(marked or test.rpartition("/")[2])
    # a test folder's own package or index file (`tests/__init__.py`) names no module
    out = [] if marked is None and own in INDEX_STEMS else [Naming(own.casefold(), tail, False)]
    if tail:
        out.append(Naming(tail[-1].casefold(), tail[:-1], by_folder=True))
    return out


def _home_of(test: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """path_roles.home_of_test, and for a type test (`*.test-d.ts`) beside no test folder of
    that list, the last folder whose name qualifies a test folder (`test-dts`, `dts-test`,
    `types-tests`) as its test folder: QA on vuejs/pinia, whose packages/pinia/test-dts/
    storeToRefs.test-d.ts tested no file (its home was test-dts/, where no storeToRefs.ts
    is), and `type tests for storeToRefs` put it below the spec."""
    home, tail = home_of_test(test)
    folders = _folders(test)
    if home != folders or _TYPE_TEST not in test.rpartition("/")[2]:
        return home, tail
    for i in range(len(folders) - 1, -1, -1):
        if _QUALIFIED_TEST_DIR.match(folders[i]):
            return folders[:i], folders[i + 1 :]
    return home, tail


def marked_subject(test: str) -> str | None:
    """The file name `test` marks as its subject's (path_roles.subject_name), and a Rust
    test's in a test folder named `test_<module>.rs` (`tests/test_redaction.rs` tests
    `redaction.rs`): QA on mitsuhiko/insta, whose tests/test_*.rs were the tests of no file."""
    marked = subject_name(test)
    if marked is not None or not test.endswith(_RUST):
        return marked
    name = test.rpartition("/")[2]
    in_test_folder = _home_of(test)[0] != _folders(test)
    if in_test_folder and name.startswith(_RUST_TEST_PREFIX) and name != _RUST_TEST_PREFIX + _RUST:
        return name.removeprefix(_RUST_TEST_PREFIX)
    return None


def _mirrored(tail: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the folders of a test project, the rest) of a tail below a test folder: a test
    project is a folder of the test folder with a source folder of its own (kysely's
    test/node/src/, beside test/deno/ and test/bun/), whose folders down to it are that
    project's layout, not its subjects' (test/node/src/log-once.test.ts tests
    src/util/log-once.ts), and only those below it mirror the code; so are the folders down
    to a test folder of its own (kysely's test/typings/test-d/delete-query-builder.test-d.ts
    tests src/query-builder/delete-query-builder.ts). A tail opening with the source folder
    (`test/src/foo/`) mirrors the code whole, and so does a tail through a folder of test
    data (mocha's test/integration/fixtures/: a spec there is a fixture the tests run, named
    for no source file of the repository but one its folders end with)."""
    if any(folder.lower() in _TEST_DATA_DIRS for folder in tail):
        return (), tail
    rest = tail
    while rest:  # below the last test folder
        above, below = home_of_test("/".join((*rest, "_")))
        if above == rest:
            break
        rest = below
    for i in range(len(rest) - 1, 0, -1):
        if rest[i] == SOURCE_FOLDER:
            rest = rest[i + 1 :]
            break
    return tail[: len(tail) - len(rest)], rest


def known_as(subject: str) -> list[tuple[str, tuple[str, ...]]]:
    """(name, folders) a source file is known by: its stem in its folder and, for a module's
    index file, its folder's name in the folder above; a private Python module also by its
    name without the underscore (_private)."""
    folders, stem = _folders(subject), _stem(subject.rpartition("/")[2])
    out = [(stem.casefold(), folders)]
    if stem.lower() in INDEX_STEMS and folders:
        out.append((folders[-1].casefold(), folders[:-1]))
    if _private(subject):
        out.append((stem[1:].casefold(), folders))
    return out


def _private(path: str) -> bool:
    """Whether `path` is a private Python module (`_unions.py`, not `__init__.py`): a package
    keeps its code in such modules and re-exports their names, and its tests are named for
    the public name (cattrs' tests/strategies/test_class_methods.py tests
    strategies/_class_methods.py; QA on python-attrs/cattrs found it the test of
    strategies/__init__.py, by its folder, and tests/test_generics.py of no file). Where its
    imports are known, such a test imports the module or its package: cattrs'
    tests/test_unions.py imports only cattrs.converters, and tests no strategies/_unions.py."""
    name = path.rpartition("/")[2]
    return name.endswith((".py", ".pyi")) and name.startswith("_") and not name.startswith("__")


def spelled_as(subject: str) -> list[str]:
    """The names known_as gives `subject`, as its path spells them (`OptionGroup`, not
    `optiongroup`): a read of the paths by their words splits a compound name only while its
    case still shows the words (commons-cli's OptionGroupTest.java is `option group test`)."""
    folders, stem = _folders(subject), _stem(subject.rpartition("/")[2])
    out = [stem]
    if stem.lower() in INDEX_STEMS and folders:
        out.append(folders[-1])
    if _private(subject):
        out.append(stem[1:])
    return out


def names_subject(test: str, subject: str) -> Naming | None:
    """How `test` names `subject` by the convention (module doc), None if it does not: the
    same language family, a test file and a source file, a name and a place that agree."""
    if language_family(test) != language_family(subject) or role_of(subject) != Role.SOURCE:
        return None
    if role_of(test) != Role.TEST:
        return None
    home, _tail = _home_of(test)
    beside_code = home == _folders(test)
    # a JS/TS test may spell its subject's name kebab-cased (`validation-error.spec.ts` for
    # ValidationError.ts, as typestack/class-validator does)
    same = _loosely if language_family(test) == "js" else str.__eq__
    for naming in namings(test):
        for name, folders in known_as(subject):
            if same(name, naming.name) and _placed(home, naming.tail, beside_code, folders):
                return naming
    return None


def _loosely(a: str, b: str) -> bool:
    """Whether two casefolded names are the same but for `-` and `_` between their words."""
    return a.replace("-", "").replace("_", "") == b.replace("-", "").replace("_", "")


def subject_of_test(test: str, lookup: Lookup, imports: Imports | None = None) -> str | None:
    """The source file `test` tests by the convention (module doc), of those `lookup` finds
    by the file names the test's namings give; None when none qualifies. Of several named
    alike, a Python test's subject is one whose module it imports (`imports`: a file's
    imported modules as written) before the nearest: QA on python-attrs/cattrs, whose
    tests/test_gen.py imports `cattrs.gen` (src/cattrs/gen/__init__.py), made it the test of
    src/cattr/gen.py, a shorter path re-exporting that package's names."""
    qualified = [
        (naming.by_folder, path)
        for path in sorted(candidates_named(test, lookup))
        if (naming := names_subject(test, path)) is not None
    ]
    private = any(_private(path) for _, path in qualified)
    modules = imports(test) if imports is not None and (len(qualified) > 1 or private) else ()
    if imports is not None:  # a private module's test imports its package (_private)
        qualified = [
            (f, p) for f, p in qualified if not _private(p) or _imports_package(modules, p)
        ]
    if not qualified:
        return None
    paths = [path for _, path in qualified]
    imported = {path for path in paths if test.endswith(".py") and _imports(modules, path)}
    ranked = [
        (by_folder, path not in imported, -_shared(test, path), len(path), path)
        for by_folder, path in qualified
    ]
    return min(ranked)[-1]


def candidates_named(test: str, lookup: Lookup) -> set[str]:
    """The indexed files `lookup` finds by the file names the namings of `test` give."""
    return {path for name in lookup_names(test) for path in lookup(name)}


def _imports_package(modules: Sequence[str], path: str) -> bool:
    """Whether one of `modules` is the module at `path` or the package holding it."""
    return _imports(modules, path) or _imports(modules, f"{path.rpartition('/')[0]}/__init__.py")


def _imports(modules: Sequence[str], path: str) -> bool:
    """Whether one of `modules` (a Python file's imports: `cattrs.gen`, or a name in it,
    `cattrs.gen.override`) is the module of the Python file at `path`, whose leading folders
    (`src/`) no import writes."""
    stem = path.removesuffix(".pyi").removesuffix(".py").removesuffix("/__init__")
    dotted = "." + stem.replace("/", ".")
    for module in modules:
        parts = module.lstrip(".").split(".")
        if any(dotted.endswith("." + ".".join(parts[:n])) for n in range(len(parts), 0, -1)):
            return True
    return False


def lookup_names(test: str) -> list[str]:
    """The file names (or tails) the subject of `test` may have: `fr.ts` for `fr.test.ts`,
    and for each naming a folder's module file (`adapter/index.ts`)."""
    own = marked_subject(test) or test.rpartition("/")[2]
    extension = own[len(_stem(own)) :]
    out = [own, f"_{own}"] if extension in (".py", ".pyi") else [own]
    for naming in namings(test):
        if naming.by_folder:
            out.append(f"{naming.name}{extension}")
        if naming.name not in INDEX_STEMS:
            out.extend(f"{naming.name}/{index}{extension}" for index in _folder_files(extension))
    return list(dict.fromkeys(out))


def _placed(
    home: tuple[str, ...], tail: tuple[str, ...], beside_code: bool, folders: tuple[str, ...]
) -> bool:
    """Whether a test at `home` (beside its code, or in a test folder below it) may test a
    file in `folders`, which must end with `tail` (module doc)."""
    if beside_code:
        return folders == home and not tail
    if tail and folders[-len(tail) :] != tail:
        return False
    if folders[: len(home)] == home:
        return True
    return bool(tail) and bool(home) and folders[: len(home) - 1] == home[:-1]


def _folder_files(extension: str) -> tuple[str, ...]:
    if extension in _JS_EXTENSIONS:
        return _JS_FOLDER_FILES
    return _FOLDER_FILES.get(extension, ())


def _folders(path: str) -> tuple[str, ...]:
    folders = path.rpartition("/")[0]
    return tuple(folders.split("/")) if folders else ()


def _stem(name: str) -> str:
    return name.split(".", 1)[0]


def _shared(test: str, path: str) -> int:
    """The leading folders `test` and `path` share."""
    n = 0
    for a, b in zip(_folders(test), _folders(path), strict=False):
        if a != b:
            break
        n += 1
    return n
