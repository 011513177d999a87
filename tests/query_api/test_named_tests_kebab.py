"""A JS/TS test names its subject kebab-cased (`validation-error.spec.ts` for
ValidationError.ts), and a folder sorting tests by their kind (`test/functional/`) mirrors no
source folder. QA on typestack/class-validator: related of src/validation/ValidationError.ts
and src/validation/ValidatorOptions.ts listed neither test/functional/validation-error.spec.ts
nor test/functional/validator-options.spec.ts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.tested_by import names_subject, subject_of_test
from streams.stores.views.named_files import path_named_files
from tests.query_api.test_symbol_dependents import Repo, repo_holding

SPEC = "import { Validator } from '../../src/validation/Validator';\n\nit('x', () => 1);\n"
FILES = {
    "src/validation/ValidationError.ts": "export class ValidationError {\n  property = '';\n}\n",
    "src/validation/Validator.ts": "export class Validator {\n  validate() {}\n}\n",
    "src/utils/is-promise.util.ts": "export function isPromise() {\n  return 1;\n}\n",
    "test/functional/validation-error.spec.ts": SPEC,
    "test/unit/is-promise.util.spec.ts": SPEC,
}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, FILES) as r:
        yield r


def test_a_kebab_cased_spec_in_a_kind_folder_tests_its_subject(repo: Repo) -> None:
    assert repo.resolver.named_tests("r", "src/validation/ValidationError.ts") == [
        "test/functional/validation-error.spec.ts"
    ]
    assert repo.resolver.named_tests("r", "src/utils/is-promise.util.ts") == [
        "test/unit/is-promise.util.spec.ts"
    ]


def test_the_subject_of_a_kebab_cased_spec(repo: Repo) -> None:
    def lookup(name: str) -> list[str]:
        return repo.store.read(lambda c: path_named_files(c, "r", name, as_written=False))

    test = "test/functional/validation-error.spec.ts"
    assert subject_of_test(test, lookup) == "src/validation/ValidationError.ts"


def test_other_languages_keep_their_names_whole() -> None:
    assert names_subject("tests/test_foo_bar.py", "src/foobar.py") is None
    assert names_subject("tests/test_foo_bar.py", "src/foo_bar.py") is not None
