"""Test files named for a class its subject declares, not for the subject's file: flake8's
tests/unit/test_file_processor.py tests `FileProcessor` of src/flake8/processor.py, and no
file is called file_processor.py, so the naming convention (tested_by) placed it under
nothing. A test file is such a test of a source file when its own name, without the test
marker, is a class the source file declares (snake_case `test_file_processor.py`, as written
`FileProcessorTest.java`, `FileProcessor.test.ts`, kebab-cased `file-processor.spec.ts`) and
it depends on that class through the class's module (it imports the module and names the
class: the resolver's dependents): a test named for a class of another module, or for a
class it never uses, tests something else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from processors.path_roles import Role, role_of
from query_api.symbols.families import language_family
from query_api.symbols.tested_by import namings
from streams.stores.views.symbols import SymbolRow, SymbolViews

CLASS_KINDS = frozenset({"Type", "Interface", "Enum"})
MAX_CLASSES = 16  # the classes of one subject looked up by name
MAX_PATH_LOOKUP = 200  # paths holding a class's words read before the exact check

# the files among those given that depend on the declarations given (the resolver's
# dependents of those declarations, the subject excluded)
DependingFiles = Callable[[list[SymbolRow]], Iterable[str]]


def squashed(name: str) -> str:
    """`name` casefolded without `_` and `-`: `file_processor`, `file-processor` and
    `FileProcessor` are one name."""
    return name.casefold().replace("_", "").replace("-", "")


def class_named_tests(
    symbols: SymbolViews, repo_id: str, subject: str, depending: DependingFiles
) -> list[str]:
    """The test files named for a class `subject` declares and depending on it (module
    doc), sorted; none for a test or a file declaring no class."""
    if role_of(subject) != Role.SOURCE:
        return []
    stem = squashed(subject.rpartition("/")[2].split(".", 1)[0])
    classes = [
        row
        for row in symbols.symbols_of_file(repo_id, subject)
        if row.kind in CLASS_KINDS and squashed(row.name) != stem  # the convention's own
    ][:MAX_CLASSES]
    family = language_family(subject)
    named: dict[str, list[SymbolRow]] = {}
    for row in classes:
        for path in symbols.files_with_path_words(repo_id, row.name, MAX_PATH_LOOKUP):
            if path != subject and language_family(path) == family and _named_for(path, row):
                named.setdefault(path, []).append(row)
    if not named:
        return []
    wanted = list({id(row): row for rows in named.values() for row in rows}.values())
    found = set(depending(wanted))
    return sorted(path for path in named if path in found)


def _named_for(test: str, row: SymbolRow) -> bool:
    """Whether `test` is a test file whose own name (not a folder's) is the class `row`."""
    if role_of(test) != Role.TEST:
        return False
    return any(
        not naming.by_folder and squashed(naming.name) == squashed(row.name)
        for naming in namings(test)
    )
