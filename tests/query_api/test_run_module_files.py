"""`python -m X` names the file Python runs: a package's __main__.py, else the module's file.
QA on Textualize/rich: `what runs when I do python -m rich` named no file and answered
rich/console.py and rich/prompt.py; rich/__main__.py, the demo it runs, was not in the first
two."""

from __future__ import annotations

from pathlib import Path

import pytest

from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.named_files import path_named_files
from tests.streams.symbol_records import records

FILES = {
    "rich/__init__.py": "def get_console():\n    return None\n",
    "rich/__main__.py": "def make_test_card():\n    return 'card'\n",
    "rich/markdown.py": "class Markdown:\n    pass\n",
    "src/tool/cli.py": "def main():\n    return 0\n",
}


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("what runs when I do python -m rich", ["rich/__main__.py"]),
        ("python3 -m rich.markdown README.md crashes", ["rich/markdown.py"]),
        ("python -X dev -m tool.cli --help", ["src/tool/cli.py"]),
        ("python -m pytest tests", []),  # not in the repository
        ("rich markdown crashes", []),  # no module run
    ],
)
def test_a_module_run_as_a_program_names_its_file(
    tmp_path: Path, query: str, named: list[str]
) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in FILES.items():
            views.apply(records(path, body), {})
        assert views.read(lambda conn: path_named_files(conn, "r", query)) == named
