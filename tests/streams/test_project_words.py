"""A word naming the project (a folder of most of its paths) names no file: keyword search
neither boosts the package's index file called by it nor gives a `path-name-match` reason
for it alone. QA on PyCQA/flake8: `how does flake8 read the --output-file option` put
src/flake8/__init__.py first, every hit `path-name-match`."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.project_words import project_words, readme_name
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

FILES = {
    "setup.cfg": "[metadata]\nname = quokkalint\nversion = 1.0\n",
    "README.md": "# Quokkalint\n\nA linter.\n",
    "src/quokkalint/__init__.py": (
        '"""quokkalint: a linter; the option reader lives in options."""\n'
        "__version__ = '1.0'\nLOG = 'quokkalint'\n"
    ),
    "src/quokkalint/main/options.py": (
        "def register(parser):\n"
        "    parser.add_option('--output-file', default=None, help='Redirect report to a file.')\n"
        "    parser.add_option('--tee', action='store_true')\n"
        "    parser.add_option('--count', action='store_true')\n"
        "    parser.add_option('--statistics', action='store_true')\n"
    ),
    "src/quokkalint/style_guide.py": (
        "class StyleGuide:\n    def report(self, output_file):\n        return output_file\n"
    ),
}


def test_the_project_words_are_its_manifest_readme_and_id_names(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        words = store.read(lambda c: project_words(c, "r"))
    assert "quokkalint" in words


def test_the_project_name_lifts_no_file_by_its_path(tmp_path: Path) -> None:
    query = "how does quokkalint read the --output-file option"
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        hits = keyword_hits(store, "r", query, 10)
    assert hits[0].path != "src/quokkalint/__init__.py", [h.path for h in hits]
    named = [h.path for h in hits if "path-name-match" in h.reasons]
    assert "src/quokkalint/__init__.py" not in named, named
    assert "src/quokkalint/style_guide.py" not in named, named


def test_a_readme_title_names_the_project_when_one_word_names_a_folder(tmp_path: Path) -> None:
    """A README's title is the project's name only where it is one word that is a folder of
    the repository: `# Welcome to urfave/cli`, a logo's `<div align="center">` and a
    one-word `# Overview` had made `welcome`, `div` and `overview` project words, and those
    words lost their path matches in every query."""
    assert readme_name("# eza\n\nA modern ls.\n") == "eza"
    assert readme_name('<div align="center">\n<img src="logo.svg">\n<h1>Zustand</h1>') == "Zustand"
    assert readme_name("Flask\n=====\n\nA framework.\n") == "Flask"
    assert readme_name("# Welcome to urfave/cli\n") is None
    assert readme_name('<p align="center"><img src="logo.png"></p>\n\n# Gin Web Framework') is None
    files = {
        "README.md": "# Overview\n\nThe quokkalint linter.\n",
        "docs/overview.md": "# How it works\n",
        "src/quokkalint/__init__.py": "VERSION = 1\n",
    }
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        assert "overview" not in store.read(lambda c: project_words(c, "r"))
    files["README.md"] = "# Quokkalint\n\nA linter.\n"
    with ViewStore(tmp_path / "views2.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        assert "quokkalint" in store.read(lambda c: project_words(c, "r"))
