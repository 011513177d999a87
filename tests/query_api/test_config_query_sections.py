"""A config question's config files with a section whose header names the subject (`[mypy]`,
`[coverage:run]`) come first: they configure the tool, where a file merely naming it runs it
(a pre-commit hook's `id: mypy`, tox's `coverage run -m pytest`) or ignores its output
(.gitignore's `/.mypy_cache`). QA on PyCQA/flake8: `how is mypy configured` ranked
.pre-commit-config.yaml first and setup.cfg's `[mypy]` second, and `where is coverage
configured` tox.ini above setup.cfg's `[coverage:run]`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    ".pre-commit-config.yaml": "repos:\n-   repo: https://github.com/pre-commit/mirrors-mypy\n"
    "    rev: v1.0\n    hooks:\n    -   id: mypy\n",
    "tox.ini": "[tox]\nenvlist = py\n\n[testenv]\ndeps =\n    coverage\n    mypy\n"
    "commands =\n    coverage run -m pytest\n    coverage report\n    mypy src\n",
    "setup.cfg": "[metadata]\nname = tool\n\n[coverage:run]\nsource = tool\nplugins = covdefaults\n"
    "\n[mypy]\ncheck_untyped_defs = true\n",
    ".gitignore": "/.mypy_cache\n.coverage\n",
    "src/tool/app.py": "def run():\n    return 1\n",
}


async def test_the_file_with_the_subjects_section_comes_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query, line in (("how is mypy configured", 8), ("where is coverage configured", 4)):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            first = answer.hits[0]
            assert (first.entry.path, first.startLine) == ("setup.cfg", line), (query, answer.hits)
