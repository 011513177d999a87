"""Of several source files a Python test's name may mean, its subject is one whose module it
imports (query_api/symbols/tested_by.subject_of_test). QA on python-attrs/cattrs: its
tests/test_gen.py imports `cattrs.gen` (src/cattrs/gen/__init__.py), and was made the test of
src/cattr/gen.py, a shorter path re-exporting that package's names: `related` listed it under
that file, and search placed src/cattr/gen.py first for `Optimize linecaching`, a word only the
test held."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.tested_by import subject_of_test
from schemas import tools as t
from schemas.symbols import RelatedArgs
from tests.ingested import indexed_app

LEGACY = "src/cattr/gen.py"
PACKAGE = "src/cattrs/gen/__init__.py"
INDEXED = [LEGACY, PACKAGE, "src/cattrs/__init__.py", "src/cattr/__init__.py"]


def subject(test: str, imports: list[str] | None) -> str | None:
    def lookup(name: str) -> list[str]:
        return [p for p in INDEXED if f"/{p}".endswith(f"/{name}")]

    return subject_of_test(test, lookup, None if imports is None else lambda _: imports)


def test_the_file_a_test_imports_is_its_subject() -> None:
    assert subject("tests/test_gen.py", ["attrs", "cattrs", "cattrs.gen"]) == PACKAGE
    # a name imported from the module names it too
    assert subject("tests/test_gen.py", ["cattrs.gen.make_dict_structure_fn"]) == PACKAGE
    assert subject("tests/test_gen.py", ["cattr.gen"]) == LEGACY


def test_without_an_import_the_nearest_is_the_subject() -> None:
    assert subject("tests/test_gen.py", None) == LEGACY
    assert subject("tests/test_gen.py", ["attrs"]) == LEGACY


FILES = {
    LEGACY: "from cattrs.gen import make_fn\n\n__all__ = ['make_fn']\n",
    "src/cattr/__init__.py": "",
    PACKAGE: "def make_fn(cl):\n    return cl\n",
    "src/cattrs/__init__.py": "",
    "tests/test_gen.py": (
        "import linecache\n\nfrom cattrs.gen import make_fn\n\n\n"
        "def test_linecaching():\n    assert linecache.cache is not None\n    make_fn(int)\n"
    ),
}


@pytest.mark.anyio
async def test_related_and_search_name_the_imported_subject(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        legacy = await app.services.symbols.related(RelatedArgs(repoId="repo", path=LEGACY))
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="linecaching"))
    assert "tests/test_gen.py" not in {s.path for s in legacy.tests}, legacy.tests
    first = answer.hits[0]
    assert first.entry.path == PACKAGE, [h.entry.path for h in answer.hits]
    assert "tested-by:tests/test_gen.py" in first.reasons, first.reasons
