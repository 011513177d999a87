"""`where is the CLI entry point` answers the manifest mapping the command to its function
first, then that function's file. QA on PyCQA/flake8: plugins/finder.py (writing
`entry_point`) came first, src/flake8/main/cli.py third and setup.cfg nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "setup.cfg": (
        "[metadata]\nname = quokka\n\n[options.entry_points]\nconsole_scripts =\n"
        "    quokka = quokka.main.cli:main\n"
    ),
    "src/quokka/__init__.py": "",
    "src/quokka/main/__init__.py": "",
    "src/quokka/main/cli.py": (
        "from quokka.main.application import Application\n\n"
        "def main(argv=None):\n    return Application().run(argv)\n"
    ),
    "src/quokka/main/application.py": (
        "class Application:\n    def run(self, argv):\n        return 0\n"
    ),
    "src/quokka/plugins/finder.py": (
        "class Plugin:\n    entry_point = None\n\n"
        "def load_entry_point(plugin):\n    '''Load a plugin's entry point.'''\n"
        "    return plugin.entry_point\n"
    ),
}


async def test_the_manifest_and_the_function_file_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is the CLI entry point")
        )
    paths = [hit.entry.path for hit in found.hits]
    assert paths[:2] == ["setup.cfg", "src/quokka/main/cli.py"], paths
