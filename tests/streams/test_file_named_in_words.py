"""`where is the pre-commit hook`: a question for one file whose name it writes as words
names the file called so, its last word in either number. QA on PyCQA/flake8: `where is the
pre-commit hook` ranked processor.py's `update_checker_state_for` first and
.pre-commit-hooks.yaml nowhere, the question's last word (`hook`) read as the file's name."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

FILES = {
    ".pre-commit-hooks.yaml": "-   id: tool\n    entry: tool\n",
    ".pre-commit-config.yaml": "repos:\n-   repo: local\n",
    "src/tool/processor.py": "def update_checker_state_for(plugin):\n    # a hook\n    return 1\n",
    "docs/json/spec.md": "# JSON spec\n",
}


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("where is the pre-commit hook", ".pre-commit-hooks.yaml"),
        ("where are the pre-commit hooks?", ".pre-commit-hooks.yaml"),
        ("where is the pre-commit config file", ".pre-commit-config.yaml"),
        ("where is the JSON spec", "docs/json/spec.md"),
    ],
)
def test_a_file_named_in_words_is_named(tmp_path: Path, query: str, path: str) -> None:
    with views_holding(tmp_path, FILES) as store:
        assert store.read(partial(asked_file, repo_id="r", query=query)) == [path]


def test_words_naming_no_file_name_none(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        assert store.read(partial(asked_file, repo_id="r", query="where is the commit hook")) == []
