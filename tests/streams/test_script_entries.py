"""`where is the CLI entry point` of a Python package names the manifest mapping its command to
a function (setup.cfg's `[options.entry_points]`, pyproject.toml's `[project.scripts]`) and
that function's file first. QA on PyCQA/flake8: it ranked plugins/finder.py (writing
`entry_point`) first, src/flake8/main/cli.py third and setup.cfg nowhere."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.entry_files import entry_files
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

SETUP_CFG = (
    "[metadata]\nname = quokka\n\n[options.entry_points]\nconsole_scripts =\n"
    "    quokka = quokka.main.cli:main\nquokka.extension =\n    F = quokka.plugins.flakes:Checker\n"
)
PYPROJECT = (
    '[project]\nname = "wombat"\n\n[project.scripts]\nwombat-build = "wombat.__main__:entrypoint"\n'
)
CLI = "def main(argv=None):\n    return 0\n"


def _entries(tmp_path: Path, files: dict[str, str], query: str) -> list[str]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        return store.read(lambda c: entry_files(c, "r", query))


def test_setup_cfg_console_scripts_and_their_function_file_come_first(tmp_path: Path) -> None:
    files = {
        "setup.cfg": SETUP_CFG,
        "src/quokka/__init__.py": "",
        "src/quokka/main/__init__.py": "",
        "src/quokka/main/cli.py": CLI,
        "src/quokka/plugins/flakes.py": "class Checker:\n    pass\n",
        "src/quokka/__main__.py": "from quokka.main.cli import main\nmain()\n",
    }
    found = _entries(tmp_path, files, "where is the CLI entry point")
    assert found[:2] == ["setup.cfg", "src/quokka/main/cli.py"], found
    assert "src/quokka/plugins/flakes.py" not in found, found


def test_pyproject_scripts_and_their_function_file_come_first(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": PYPROJECT,
        "src/wombat/__init__.py": "",
        "src/wombat/__main__.py": "def entrypoint():\n    return 0\n",
    }
    found = _entries(tmp_path, files, "where is the command line entry point?")
    assert found[:2] == ["pyproject.toml", "src/wombat/__main__.py"], found


def test_an_entry_point_question_not_about_the_command_is_unchanged(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "src/wombat/__main__.py": "def entrypoint():\n    pass\n"}
    assert "pyproject.toml" not in _entries(tmp_path, files, "where is the entry point")


def test_a_bin_built_into_dist_names_its_source(tmp_path: Path) -> None:
    files = {
        "package.json": (
            '{\n  "name": "quokka",\n  "bin": {\n    "quokka": "dist/cli-default.js",\n'
            '    "quokka-node": "dist/cli-node.js"\n  }\n}\n'
        ),
        "src/cli-default.ts": "import { main } from './cli-main'\nmain()\n",
        "src/cli-node.ts": "import { main } from './cli-main'\nmain({ node: true })\n",
        "src/cli-main.ts": "export function main(options = {}) {\n  return options\n}\n",
    }
    found = _entries(tmp_path, files, "where is the CLI entry point")
    assert found[:3] == ["package.json", "src/cli-default.ts", "src/cli-node.ts"], found
