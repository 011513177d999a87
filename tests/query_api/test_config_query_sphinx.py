"""A config question naming Sphinx (`where is the sphinx config`, `how is sphinx configured`)
is answered by the `conf.py` beside the doc pages it builds, a doc by its folder and named
`conf`. QA on PyCQA/flake8: `where is the sphinx config` ranked tox.ini, .readthedocs.yaml and
eight source files first and docs/source/conf.py nowhere in the first ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.sphinx_conf import is_sphinx_conf
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SOURCE = "".join(
    f"def build_{i}():\n    # build the sphinx-like tree {i}\n    return {i}\n" for i in range(6)
)
FILES = {
    "docs/source/conf.py": 'needs_sphinx = "2.1"\nextensions = ["sphinx.ext.autodoc"]\n',
    "docs/source/index.rst": "Welcome\n=======\n\nBuilt with Sphinx.\n",
    "tox.ini": "[tox]\nenvlist = py\n\n[testenv:docs]\ndeps = sphinx\n",
    "app/tree.py": SOURCE,
}


async def test_a_question_naming_sphinx_is_answered_by_its_conf_py(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("where is the sphinx config", "how is sphinx configured"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            paths = [h.entry.path for h in answer.hits]
            assert paths[:1] == ["docs/source/conf.py"], (query, paths)


def test_what_is_a_sphinx_conf() -> None:
    assert is_sphinx_conf("docs/conf.py") and is_sphinx_conf("doc/source/conf.py")
    assert not is_sphinx_conf("app/conf.py")  # a program's own settings module
    assert not is_sphinx_conf("docs/source/config.py")
