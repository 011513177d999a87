"""The users of one declaration (a `what calls X` query, name_users.NameUsers.users_of)
are the files naming it, not every file importing its module: related asks about a whole
file, so an import of it is a dependency there, but a query for the callers of a function does not.
QA on pallets/jinja: `what calls select_autoescape` marked runtime.py, environment.py,
nodes.py and ext.py `uses:select_autoescape`, each for importing `missing` or `concat`
from utils.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding

FILES = {
    "src/pkg/__init__.py": "from .utils import pick_escaping as pick_escaping\n",
    "src/pkg/utils.py": (
        "def pick_escaping(names):\n    return bool(names)\n\n\n"
        "def concat_parts(parts):\n    return ''.join(parts)\n"
    ),
    "src/pkg/app.py": (
        "from .utils import pick_escaping\n\n\n"
        "def configure(names):\n    return pick_escaping(names)\n"
    ),
    # imports the module for another of its names
    "src/pkg/runtime.py": (
        "from .utils import concat_parts\n\n\ndef render(parts):\n    return concat_parts(parts)\n"
    ),
    "src/pkg/loader.py": "from . import utils\n\n\ndef load():\n    return utils\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, FILES) as r:
        yield r


def test_the_users_of_a_function_are_the_files_naming_it(repo: Repo) -> None:
    declared = [s for s in repo.views.symbols_named("r", ["pick_escaping"])]
    found = repo.resolver.dependents_found(
        "r", declared, exclude={"src/pkg/utils.py"}, whole_files=False
    )
    assert sorted(found.files()) == ["src/pkg/__init__.py", "src/pkg/app.py"]


def test_the_dependents_of_a_file_still_count_its_importers(repo: Repo) -> None:
    assert {path for path, _ in repo.dependents("src/pkg/utils.py")} == {
        "src/pkg/__init__.py",
        "src/pkg/app.py",
        "src/pkg/runtime.py",
        "src/pkg/loader.py",
    }
