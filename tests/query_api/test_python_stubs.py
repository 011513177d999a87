"""A Python stub (`*.pyi`) is Python: attrs ships src/attr/validators.pyi beside
validators.py, and a change to a validator's signature touches both (attrs 5aa76a44, "Add
`ne` validator"), yet the stub had no language, so outline listed no symbol, related no
import, no dependent and no test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.language import language_for_path
from tests.query_api.test_symbol_dependents import Repo, repo_holding

VALIDATORS = "def instance_of(type):\n    return _InstanceOfValidator(type)\n"
STUB = """from typing import Any, overload

from . import _ValidatorType

@overload
def instance_of(type: type[_T]) -> _ValidatorType[_T]: ...
@overload
def instance_of(type: tuple[type[_T]]) -> _ValidatorType[_T]: ...
def ne(val: _T) -> _ValidatorType[_T]: ...
"""
USER = """from attr.validators import instance_of, ne

def test_instance_of():
    instance_of(int)
    ne(1)
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(
        tmp_path,
        {
            "src/attr/__init__.py": "",
            "src/attr/validators.py": VALIDATORS,
            "src/attr/validators.pyi": STUB,
            "tests/test_validators.py": USER,
        },
    ) as r:
        yield r


def test_a_stub_is_python(repo: Repo) -> None:
    assert language_for_path("src/attr/validators.pyi") == "python"
    declared = repo.views.symbols_of_file("r", "src/attr/validators.pyi")
    assert {s.name for s in declared} == {"instance_of", "ne"}


def test_a_stub_has_the_dependents_and_tests_of_its_names(repo: Repo) -> None:
    stub = "src/attr/validators.pyi"
    declared = repo.views.symbols_of_file("r", stub)
    dependents = repo.resolver.dependents("r", declared, exclude={stub})
    assert ("tests/test_validators.py", "tests.test_validators.test_instance_of") in {
        (d.path, d.symbol) for d in dependents
    }
    tests = repo.resolver.tests("r", declared, dependents, exclude={stub}, subject=stub)
    assert {t.path for t in tests} == {"tests/test_validators.py"}
