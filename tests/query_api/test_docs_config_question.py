"""`where is the docs config` asks for the documentation build's configuration, as `where is
the sphinx config` does: Sphinx's conf.py among the pages. QA on python-jsonschema/jsonschema:
`where is the docs config` and `how are the docs configured` ranked noxfile.py's docs session,
the CI workflow, dependabot.yml and pyproject.toml first and docs/conf.py nowhere in the first
ten (a doc by its folder, named `conf`, it holds neither `docs` nor `config`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "docs/conf.py": (
        "import importlib.metadata\n\nproject = 'gauge'\nauthor = 'Someone'\n"
        "copyright = '2013, ' + author\nextensions = ['sphinx.ext.autodoc']\n"
        "html_theme = 'furo'\n"
    ),
    "docs/index.rst": "Gauge\n=====\n\nThe docs of gauge.\n",
    "noxfile.py": (
        "import nox\n\nDOCS = 'docs'\n\n\n@nox.session\ndef docs(session):\n"
        "    session.run('sphinx-build', DOCS, 'build')  # the docs config is read\n"
    ),
    ".github/dependabot.yml": "version: 2\nupdates:\n  - directory: /docs  # docs config\n",
    "pyproject.toml": "[project]\nname = 'gauge'\n\n[tool.docs]\nconfig = 'docs'\n",
    "gauge/__init__.py": "VALUE = 1\n",
}


@pytest.mark.parametrize("query", ["where is the docs config", "how are the docs configured"])
async def test_the_docs_config_is_sphinx_conf(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert paths and paths[0] == "docs/conf.py", paths
