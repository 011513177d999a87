"""A question naming a page by its name and a noun for a page (`where is the CONTRIBUTING
guide`, `where is the install page`) asks for the doc called so. QA on nedbat/coveragepy:
`guide` was read as the file's name, no file is called so, and doc/contributing.rst came
fourth below three source files."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

FILES = {
    "doc/contributing.rst": "Contributing\n============\n\nHow to contribute a guide.\n",
    "doc/install.rst": "Installation\n============\n\npip install tool\n",
    "tool/config.py": "# the contributing guide says how options are read\nOPTIONS = {}\n",
    "tool/user.py": "class User:\n    pass\n",
    "tool/install.py": "def install():\n    return 'page'\n",
}


def test_a_page_named_with_a_noun_for_a_page_is_the_doc(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        asked = partial(asked_file, repo_id="r")
        assert store.read(partial(asked, query="where is the CONTRIBUTING guide")) == [
            "doc/contributing.rst"
        ]
        assert store.read(partial(asked, query="where is the install page")) == ["doc/install.rst"]
        # docs only: `the user guide` names no user.py
        assert store.read(partial(asked, query="where is the user guide")) == []
