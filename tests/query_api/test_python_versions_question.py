"""A question about the Python versions a package supports (`what Python versions are
supported`, `what is the minimum python version`) is about its manifest's `requires-python`
(setup.py's `python_requires=`). QA on nedbat/coveragepy: the first matched no config form and
answered env.py's PYVERSION, cmdline.py and igor.py, and once the manifest led, setup.py was
pointed at an extras line, not at `python_requires=">=3.10"`."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, roles_about
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "query",
    [
        "what Python versions are supported",
        "what is the minimum python version",
        "which python versions does gauge support",
    ],
)
def test_a_question_about_python_versions_is_about_config(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query


def test_a_change_of_the_versions_is_a_request() -> None:
    assert roles_about("Drop support for Python 3.9") == set()


SOURCE = (
    '"""What this Python version supports."""\n\nimport sys\n\n'
    "PYVERSION = sys.version_info  # the python version we run on\n"
    "SUPPORTED = PYVERSION >= (3, 10)  # versions supported by the tracer\n"
)
SETUP = (
    "from setuptools import setup\n\n"
    "setup(\n"
    '    name="gauge",\n'
    '    extras_require={"toml": [\'tomli; python_full_version<="3.11.0a6"\']},\n'
    '    classifiers=["Programming Language :: Python :: 3.10"],\n'
    '    python_requires=">=3.10",  # the oldest version supported\n'
    ")\n"
)
PYPROJECT = (
    '[build-system]\nrequires = ["setuptools"]\n\n'
    '[project]\nname = "gauge"\nversion = "1.0"\nrequires-python = ">=3.10"\n\n'
    '[tool.pytest.ini_options]\npython_files = ["test_*.py"]\n'
)


async def test_setup_py_is_pointed_at_python_requires(tmp_path: Path) -> None:
    files = {"setup.py": SETUP, "gauge/env.py": SOURCE, "gauge/cli.py": SOURCE}
    async with indexed_app(tmp_path, files, "gauge") as app:
        query = "what Python versions are supported"
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        assert found.hits[0].entry.path == "setup.py", found.hits
        assert found.hits[0].startLine == 7, found.hits[0]


async def test_pyproject_is_pointed_at_requires_python(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "gauge/env.py": SOURCE, "gauge/cli.py": SOURCE}
    async with indexed_app(tmp_path, files, "gauge") as app:
        query = "what is the minimum python version"
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        assert found.hits[0].entry.path == "pyproject.toml", found.hits
        assert found.hits[0].startLine == 7, found.hits[0]  # requires-python
