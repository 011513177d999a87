"""A definition query for a word a Python module declares as its dunder (`where is the version
defined`: `__version__`) means that declaration, not a field of the name some object has.
QA on PyCQA/flake8: plugins/finder.py's `Plugin.version` field ranked first and
src/flake8/__init__.py, holding `__version__ = "7.3.0"`, fifth."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from query_api.retrieval.defining_files import defining_files
from tests.streams.symbol_records import views_holding

FILES = {
    "src/tool/__init__.py": '"""The tool."""\n__version__ = "7.3.0"\n',
    "src/tool/plugins/finder.py": "from typing import NamedTuple\n\n\n"
    "class Plugin(NamedTuple):\n    package: str\n    version: str\n",
    "src/tool/utils.py": "def get_python_version() -> str:\n    return '3.12'\n",
}


def test_the_version_is_the_modules_dunder(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        for query in ("where is the version defined", "where is version defined"):
            found = store.read(partial(defining_files, repo_id="r", query=query))
            assert found == {"src/tool/__init__.py"}, (query, found)


def test_a_name_no_dunder_spells_is_found_as_before(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        found = store.read(lambda c: defining_files(c, "r", "where is package defined"))
        assert found == {"src/tool/plugins/finder.py"}, found
