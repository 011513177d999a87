"""repocontext_related's answer (spec §3.6): the modules one file imports, its dependents and
its tests, a bounded page of each.

A file every other file uses has hundreds of dependents and tests (jsoup's Jsoup.java: 498
and 498, 42k tokens), more than the 25k-token tool output common MCP clients keep. One
answer lists at most MAX_RELATED_FILES files of each list and MAX_RELATED_PAIRS symbol/path
pairs, shared out evenly over those files (never fewer than one a file), most related first:

- dependents: files outside tests first (a test file that uses the file is listed under
  `tests` too), and of those, code before documentation, examples and benchmarks (typer's
  200 docs_src/ tutorials came before typer/cli.py, the one library file importing
  typer/__init__.py); then the files with the most symbols referencing it (the closest
  coupled), then by path;
- tests: files named for the file or one of its types (`ElementTest.java`, `test_element.py`,
  `element_test.go`, `element.test.ts`, a test folder `element/`) first, then the files with
  the most symbols referencing it, then by path.

A longer list says so, as outline does (`symbolCount`, `nextOffset`): how many pairs and files
each list holds in all (`dependentCount`, `dependentFiles`, `testCount`, `testFiles`) and the
offset of the next page (`nextOffset`), one offset for both lists, in files; a list shorter
than the page is empty on the pages after its last. Counts, not a token budget, bound the
page, so that one offset means the same files on every call.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from processors.path_roles import Role, role_of, subject_name
from query_api.symbols.dependents import TYPE_KINDS, DependentsResolver, is_test_path
from query_api.symbols.families import even_share, language_family
from query_api.symbols.go_family import by_test_function, package_level
from query_api.symbols.import_names import ImportNames
from query_api.symbols.kotlin_locals import by_enclosing_function
from query_api.symbols.rust_tests import own_test_names, unit_tests_using
from query_api.symbols.tested_by import subject_of_test
from schemas.symbols import MAX_RELATED_FILES, MAX_RELATED_PAIRS, RelatedResult, SymbolAt
from streams.stores.views.named_files import path_named_files
from streams.stores.views.symbols import SymbolRow, SymbolViews

_TEST_PREFIXES = ("test_", "test")
_TEST_SUFFIXES = ("_tests", "_test", "_spec", "tests", "test", "spec")
_INDEX_STEMS = frozenset({"index", "mod", "__init__"})
_SOURCE_ROOTS = frozenset({"src", "lib", "source"})  # a package's code, under its name
_ASIDE_ROLES = frozenset({Role.DOC, Role.EXAMPLE, Role.BENCH})
# a docs or examples folder with a qualifier, which path_roles does not know: `docs_src/`
# (fastapi, typer, sqlmodel), `example_apps/`
_QUALIFIED_ASIDE_DIR = re.compile(
    r"^(docs?|examples?)[-_](src|source|code|snippets|examples?|apps?)$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Listed:
    """One list's page: its rows, and how many pairs and files the whole list holds."""

    rows: list[SymbolAt]
    count: int
    files: int
    cut: bool  # files or symbols past this page, or before it


def test_stem(path: str) -> str:
    """A test file's name without its test affixes, casefolded: `element` for
    `ElementTest.java`, `test_element.py`, `element_test.go` and `element.test.ts`."""
    stem = path.rpartition("/")[2].split(".", 1)[0].casefold()
    for prefix in _TEST_PREFIXES:
        if stem.startswith(prefix) and len(stem) > len(prefix):
            stem = stem[len(prefix) :]
            break
    for suffix in _TEST_SUFFIXES:
        if stem.endswith(suffix) and len(stem) > len(suffix):
            return stem[: -len(suffix)]
    return stem


def subject_names(subject: str, declared: list[SymbolRow]) -> frozenset[str]:
    """What a test file named for `subject` is named after: the file's stem (its folder's
    name for an index file, and the package's for the index of its source root: `memory`
    for feathers' packages/memory/src/index.ts, whose tests are packages/memory/test/) and
    its types' names, casefolded."""
    folders, _, name = subject.rpartition("/")
    stem = name.split(".", 1)[0]
    package = ""
    if stem.lower() in _INDEX_STEMS and folders:
        above, _, stem = folders.rpartition("/")
        if stem.lower() in _SOURCE_ROOTS:
            package = above.rpartition("/")[2]
    names = {s.name.casefold() for s in declared if s.kind in TYPE_KINDS}
    return frozenset({stem.casefold(), package.casefold(), *names} - {""})


def named_for(path: str, names: frozenset[str]) -> bool:
    """Whether the test file `path` (or a folder it is in) is named for one of `names`."""
    folders = path.split("/")[:-1]
    return test_stem(path) in names or any(f.casefold() in names for f in folders)


def is_aside(path: str) -> bool:
    """Whether `path` is documentation, an example or a benchmark: a user of a file an agent
    reads after the code using it (see the module doc)."""
    if role_of(path) in _ASIDE_ROLES:
        return True
    return any(_QUALIFIED_ASIDE_DIR.match(folder) for folder in path.split("/")[:-1])


def ranked_dependents(files: dict[str, list[str]]) -> list[str]:
    return sorted(files, key=lambda p: (is_test_path(p), is_aside(p), -len(files[p]), p))


def ranked_tests(
    files: dict[str, list[str]], names: frozenset[str], subject: str = ""
) -> list[str]:
    """Tests named for the file first; of those, the ones in its package (feathers'
    packages/feathers/test/hooks/*.test.ts before packages/schema/test/hooks.test.ts for
    packages/feathers/src/hooks.ts), then those with its own stem (`index.test.ts` for an
    index.ts, before the package's app.fixture.ts), then those whose name marks them a test
    (unstorage's test/server.test.ts before test/server.bench.ts, which the path put first);
    then by how much they use it."""
    stem = subject.rpartition("/")[2].split(".", 1)[0].casefold()
    package = package_folder(subject)
    return sorted(
        files,
        key=lambda p: (
            not named_for(p, names),
            not p.startswith(package),
            test_stem(p) != stem,
            p != subject and subject_name(p) is None,  # a Rust file's own tests stay first
            -len(files[p]),
            p,
        ),
    )


def package_folder(path: str) -> str:
    """The folder of the package `path` is in, with its slash: the one above its source root
    (`packages/feathers/` for packages/feathers/src/hooks.ts); "" when no folder of the path
    is a source root."""
    parts = path.split("/")[:-1]
    roots = [i for i, part in enumerate(parts) if part.lower() in _SOURCE_ROOTS]
    return "".join(f"{part}/" for part in parts[: roots[-1]]) if roots else ""


def page_of(
    files: dict[str, list[str]], order: list[str], offset: int, names: ImportNames
) -> Listed:
    """The files of `order` from `offset`, each with an even share of MAX_RELATED_PAIRS."""
    chosen = order[offset : offset + MAX_RELATED_FILES]
    share = even_share([len(files[p]) for p in chosen], MAX_RELATED_PAIRS)
    rows = [
        SymbolAt(symbol=names.shown(symbol, path), path=path)
        for path in chosen
        for symbol in files[path][:share]
    ]
    count = sum(len(symbols) for symbols in files.values())
    return Listed(rows, count, len(files), cut=len(rows) < count)


def related_of(
    resolver: DependentsResolver, symbols: SymbolViews, repo_id: str, path: str, offset: int
) -> RelatedResult:
    """The answer for a stored file (the service checks that it is one)."""
    declared = symbols.symbols_of_file(repo_id, path)
    found = resolver.dependents_found(repo_id, declared, exclude={path})
    by_file = found.files()
    dependents = [SymbolAt(symbol=s, path=p) for p, syms in by_file.items() for s in syms]
    tests = resolver.tests_found(repo_id, declared, dependents, exclude={path}, subject=path)
    # a Kotlin local `val` is named by its function (kotlin_locals), in both lists
    declarations = functools.partial(symbols.symbols_of_files, repo_id)
    others = unit_tests_using(
        {p: syms for p, syms in by_file.items() if not is_test_path(p)}, declarations
    )
    tested = by_enclosing_function(
        {**own_tests(path, declared), **others, **tests.files()}, declarations
    )
    names = ImportNames(symbols, repo_id)
    # a Go test's table fields by its function, as the tests list names them (_tests_page)
    shown_by_file = {
        p: by_test_function(syms) if language_family(p) == "go" and is_test_path(p) else syms
        for p, syms in by_enclosing_function(by_file, declarations).items()
    }
    shown_deps = page_of(shown_by_file, ranked_dependents(shown_by_file), offset, names)
    shown_tests = _tests_page(tested, subject_names(path, declared), path, offset, names)
    paged = shown_deps.cut or shown_tests.cut
    after = offset + MAX_RELATED_FILES
    return RelatedResult(
        repoId=repo_id,
        path=path,
        exists=True,
        # a relative import resolves to the path's module name; shown as code imports it
        imports=[names.shown(module, path) for module in resolver.imports(repo_id, path)],
        dependents=shown_deps.rows,
        tests=shown_tests.rows,
        dependentCount=shown_deps.count if paged else None,
        dependentFiles=shown_deps.files if paged else None,
        testCount=shown_tests.count if paged else None,
        testFiles=shown_tests.files if paged else None,
        nextOffset=after if after < max(shown_deps.files, shown_tests.files) else None,
        note=_joined(
            aside_note(path, bool(shown_deps.rows or shown_tests.rows)),
            go_subject_note(path, lambda name: named_files(symbols, repo_id, name)),
            unresolved_members_note(path, declared),
            untested_note(path, by_file, tested, functools.partial(_tested, resolver, repo_id)),
        ),
    )


_ASIDE_KINDS = {Role.CONFIG: "a config file", Role.DOC: "documentation"}


def aside_note(path: str, listed: bool) -> str | None:
    """What related of a config or doc file with nothing to list means: no imports,
    dependents or tests are tracked for it (on uber-go/zap, related of go.mod answered empty
    lists and no note, which read as a file nothing uses), and where its users are found."""
    kind = _ASIDE_KINDS.get(role_of(path))
    if kind is None or listed:
        return None
    name = path.rpartition("/")[2]
    return (
        f"{path} is {kind}: related lists the imports, dependents and tests of code; "
        f"repocontext_search for {name} finds the files naming it"
    )


def own_tests(path: str, declared: list[SymbolRow]) -> dict[str, list[str]]:
    """A Rust file's unit tests, which it holds itself (`#[cfg(test)] mod tests`), as its
    tests list's first file: related of fd's src/filter/time.rs said "tests: none" and "no
    test uses it" beside the file's own `#[test]` functions (or, where a macro makes them,
    the `#[cfg(test)]` module holding them). A test file (tests/tests.rs)
    is not listed as a test of itself: all it declares are tests."""
    if language_family(path) != "rust" or is_test_path(path):
        return {}
    found = own_test_names(declared)
    return {path: found} if found else {}


# the files using an untested file whose own tests its note looks for (each a dependents
# and tests lookup, as related of that file makes)
NOTE_USERS = 5


def untested_note(
    path: str,
    by_file: dict[str, list[str]],
    tests: dict[str, list[str]],
    tested: Callable[[str], bool] = lambda _: False,
) -> str | None:
    """Where the tests of a file no test uses or is named for may be: those of the files
    using it, its own package's first, of those the first whose related lists tests
    (`tested`, of the first NOTE_USERS). On feathersjs/feathers, related of
    packages/rest-client/src/base.ts said "tests: none" while rest-client/test/index.test.ts
    exercises it through index.ts's restClient; "none" read as untested code. On unjs/ofetch
    related of src/types.ts named src/error.ts, which no test uses either, and its note
    src/fetch.ts, whose note src/index.ts: three calls to the tests src/index.ts, a user of
    types.ts too, has."""
    if tests:
        return None
    package = package_folder(path)
    users = sorted(
        (p for p in ranked_dependents(by_file) if not is_test_path(p)),
        key=lambda p: not p.startswith(package),
    )
    if not users:
        return None
    user = next((p for p in users[:NOTE_USERS] if tested(p)), users[0])
    return (
        "no test uses it or is named for it; the tests of a file using it may exercise it: "
        f"related of {user}"
    )


def _tested(resolver: DependentsResolver, repo_id: str, path: str) -> bool:
    """Whether related of `path` lists tests: a test file using it, or one named for it."""
    declared = resolver.symbols.symbols_of_file(repo_id, path)
    files = resolver.dependents_found(repo_id, declared, exclude={path}).files()
    users = [SymbolAt(symbol=s, path=p) for p, syms in files.items() for s in syms]
    found = resolver.tests_found(repo_id, declared, users, exclude={path}, subject=path)
    return bool(own_tests(path, declared) or found.files())


def named_files(symbols: SymbolViews, repo_id: str, name: str) -> list[str]:
    """The indexed files named `name` (or ending with the tail `name`)."""
    return symbols.store.read(lambda c: path_named_files(c, repo_id, name, as_written=False))


def go_subject_note(path: str, lookup: Callable[[str], list[str]]) -> str | None:
    """The file a Go test file is named for: a Go test uses its package's declarations
    without an import, so its imports name only the standard library (bubbletea's
    cursed_renderer_test.go: imports, no dependents, no tests, and no word of
    cursed_renderer.go). The rule related's tests of that file read (tested_by)."""
    if language_family(path) != "go" or not is_test_path(path):
        return None
    subject = subject_of_test(path, lookup)
    if subject is None:
        return None
    return f"tests {subject} (named for it; a Go test uses its package's names unimported)"


def _joined(*notes: str | None) -> str | None:
    return "; ".join(n for n in notes if n) or None


def unresolved_members_note(path: str, declared: list[SymbolRow]) -> str | None:
    """What a Go file's dependents leave out: the uses of its methods and fields, which Go
    selects through a value (`cmd.Root().GenFishCompletion(...)`) that names no receiver
    type, so they are resolved only through a qualified reference (dependents.py, go_family).
    On cobra, related(fish_completions.go) said "dependents: none" while completions.go calls
    its `GenFishCompletion`: "none" read as a method nobody calls."""
    if language_family(path) != "go":
        return None
    members = [s for s in declared if s.kind in ("Method", "Field") and not package_level(s)]
    if not members:
        return None
    method = next((s.name for s in members if s.kind == "Method"), None)
    example = f"x.{method}()" if method else f"x.{members[0].name}"
    return (
        f"uses of its methods and fields through a value (`{example}`) are not resolved to "
        "it: search for the member's name to find them"
    )


def by_go_test_function(rows: list[SymbolAt]) -> list[SymbolAt]:
    """`rows` (symbols by file, as changed lists dependents) with each Go file's symbols
    named as related names its tests: a table's fields by their test function
    (go_family.by_test_function); files in the order they come."""
    by_path: dict[str, list[str]] = {}
    for row in rows:
        by_path.setdefault(row.path, []).append(row.symbol)
    return [
        SymbolAt(symbol=symbol, path=path)
        for path, symbols in by_path.items()
        for symbol in (by_test_function(symbols) if language_family(path) == "go" else symbols)
    ]


def _tests_page(
    found: dict[str, list[str]],
    names: frozenset[str],
    subject: str,
    offset: int,
    shown: ImportNames,
) -> Listed:
    files = {
        path: by_test_function(symbols) if language_family(path) == "go" else symbols
        for path, symbols in found.items()
    }
    return page_of(files, ranked_tests(files, names, subject), offset, shown)
