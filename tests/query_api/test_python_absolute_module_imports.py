"""`from pkg import mod` imports the module pkg/mod.py when it is one, as `from . import mod`
does: related's imports of pypa/pipx's src/pipx/main.py (`from pipx import commands,
constants, paths`) listed `pipx` alone. A name the package declares is the package's, and a
name another package declares (`from typing import cast`) is that package's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, {}) as r:
        yield r


PACKAGE = {
    "__init__.py": "VERSION = 1\n",
    "paths.py": "HOME = '/'\n",
    "util.py": "def run():\n    pass\n",
    "commands/__init__.py": "",
}
USER = (
    "from typing import cast\n"
    "from pipx import VERSION, commands, paths\n"
    "from pipx.util import run\n\n"
    "def main():\n    return cast(int, run()), paths.HOME, commands, VERSION\n"
)


@pytest.mark.parametrize("root", ["", "src/"])
def test_from_a_package_import_a_module_imports_that_module(repo: Repo, root: str) -> None:
    repo.add({f"{root}pipx/{name}": text for name, text in PACKAGE.items()})
    repo.add({f"{root}pipx/main.py": USER, "tests/test_main.py": USER})
    expected = ["pipx", "pipx.commands", "pipx.paths", "pipx.util", "typing"]
    assert repo.resolver.imports("r", f"{root}pipx/main.py") == expected
    assert repo.resolver.imports("r", "tests/test_main.py") == expected


def test_a_name_the_package_declares_is_the_package(repo: Repo) -> None:
    repo.add({f"pipx/{name}": text for name, text in PACKAGE.items()})
    repo.add({"app.py": "from pipx import VERSION\nfrom os import path\n"})
    assert repo.resolver.imports("r", "app.py") == ["os", "pipx"]
