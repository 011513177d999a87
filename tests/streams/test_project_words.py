"""A word naming the project (a folder of most of its paths) names no file: keyword search
neither boosts the package's index file called by it nor gives a `path-name-match` reason
for it alone. QA on PyCQA/flake8: `how does flake8 read the --output-file option` put
src/flake8/__init__.py first, every hit `path-name-match`."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.project_words import project_words
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
