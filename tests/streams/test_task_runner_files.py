"""`which nox sessions run the tests` asks for noxfile.py, as `which make target runs the
tests` asks for the Makefile. QA on python-jsonschema/jsonschema: noxfile.py was not in the
first ten, below a vendored script's `unittest.TextTestRunner().run(suite)` and cli.py's
`def run(`: the question names no file and `nox` is in few of its lines."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from schemas import tools as t
from streams.stores.views.named_files import asked_file
from tests.ingested import indexed_app
from tests.streams.symbol_records import views_holding

NOXFILE = (
    "from pathlib import Path\n\nimport nox\n\nROOT = Path(__file__).parent\n\n\n"
    "@nox.session(python=['3.12', '3.13'])\ndef tests(session):\n"
    "    session.install('-r', 'requirements.txt')\n    session.run('pytest', 'pkg')\n\n\n"
    "@nox.session\ndef style(session):\n    session.run('ruff', 'check')\n"
)
RUNNER = (
    "import unittest\n\n\ndef run{i}(suite):\n"
    '    """Run the tests of the suite; the run tests of each session."""\n'
    "    result = unittest.TextTestRunner().run(suite)  # run the tests\n"
    "    return result.wasSuccessful()\n"
)
FILES = {
    "noxfile.py": NOXFILE,
    "tools/noxfile.py": NOXFILE,
    **{f"pkg/runner{i}.py": RUNNER.format(i=i) for i in range(8)},
    "pkg/cli.py": "def run(arguments):\n    return arguments\n",
    "Gruntfile.js": "module.exports = (grunt) => grunt.registerTask('build', [])\n",
}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("which nox sessions run the tests", "noxfile.py"),
        ("what nox session runs the linters?", "noxfile.py"),
        ("which grunt task builds the site", "Gruntfile.js"),
    ],
)
@pytest.mark.anyio
async def test_a_runners_tasks_ask_for_its_task_file(
    tmp_path: Path, query: str, first: str
) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert paths and paths[0] == first, paths


def test_a_runner_word_without_its_units_names_no_file(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:

        def asked(query: str) -> list[str]:
            return store.read(partial(asked_file, repo_id="r", query=query))

        assert asked("which nox sessions run the tests") == ["noxfile.py"]
        assert asked("which tox env runs the linters") == []  # no tox.ini here
        assert asked("why is nox slow") == []
