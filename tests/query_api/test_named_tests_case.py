"""A test names its subject by its file name whatever the case (tested_by.Naming is
casefolded): jquense/yup's test/lazy.ts tests src/Lazy.ts. The lookup of the file names
preferred a path matching as written, and `lazy.ts` is the test's own name so written, so the
subject was never a candidate. QA on jquense/yup: related of src/Lazy.ts listed no
test/lazy.ts, and `tests for Lazy` did not place it. (Search's `tested-by:` placement,
ladder._subject_of, still reads the names as written: a ranking change left to the owner.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.tested_by import subject_of_test
from streams.stores.views.named_files import path_named_files
from tests.query_api.test_symbol_dependents import Repo, repo_holding

FILES = {
    "src/Lazy.ts": "export function create() {\n  return 1;\n}\n",
    "src/index.ts": "import { create as lazy } from './Lazy';\n\nexport { lazy };\n",
    "test/lazy.ts": (
        "import { lazy } from '../src';\n\n"
        "describe('lazy', () => {\n  it('x', () => lazy());\n});\n"
    ),
}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, FILES) as r:
        yield r


def test_a_test_names_its_subject_in_another_case(repo: Repo) -> None:
    assert repo.resolver.named_tests("r", "src/Lazy.ts") == ["test/lazy.ts"]


def test_the_subject_of_a_test_named_in_another_case(repo: Repo) -> None:
    def lookup(name: str) -> list[str]:
        return repo.store.read(lambda c: path_named_files(c, "r", name, as_written=False))

    assert subject_of_test("test/lazy.ts", lookup) == "src/Lazy.ts"


def test_a_query_still_prefers_the_file_as_written(repo: Repo) -> None:
    assert repo.store.read(lambda c: path_named_files(c, "r", "lazy.ts")) == ["test/lazy.ts"]
