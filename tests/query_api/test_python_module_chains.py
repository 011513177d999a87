"""Python dependents through a chain of modules, over real views fed by the real processors
(QA on click): tests/test_context.py calls `click.testing.CliRunner()` after `import click`,
and click's testing.py did not list it as a dependent; nor did a file that wrote `import
pkg.sub` and called `pkg.sub.helper()`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding

TESTING = "class CliRunner:\n    def invoke(self):\n        return 1\n"
SUB = "def helper():\n    return 1\n\ndef other():\n    return 2\n"
USER = """import click

def test_runner():
    click.testing.CliRunner().invoke()
"""
DOTTED = """import pkg.sub

def use():
    return pkg.sub.helper()
"""
# `import pkg.sub` binds `pkg`: a bare `sub.other()` is a local's method, not pkg/sub.py's
BARE = """import pkg.sub

def use(sub):
    return sub.other()
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(
        tmp_path,
        {
            "src/click/__init__.py": "",
            "src/click/testing.py": TESTING,
            "tests/test_context.py": USER,
            "pkg/__init__.py": "",
            "pkg/sub.py": SUB,
            "app/dotted.py": DOTTED,
            "app/bare.py": BARE,
        },
    ) as r:
        yield r


def test_a_call_through_the_packages_module_depends_on_that_module(repo: Repo) -> None:
    assert repo.dependents("src/click/testing.py") == [
        ("tests/test_context.py", "tests.test_context.test_runner")
    ]


def test_import_a_dot_b_binds_a_and_its_chain_names_the_module(repo: Repo) -> None:
    # bare.py's `sub.other()` is a local's method, not a reference of its `use`; its `import
    # pkg.sub` still makes it a dependent at file level (python_modules.more_dependents)
    assert repo.dependents("pkg/sub.py") == [
        ("app/bare.py", "<file>"),
        ("app/dotted.py", "app.dotted.use"),
    ]
