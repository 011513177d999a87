"""A question naming a command-line flag (`where is the --show-missing flag`) places the files
declaring it in a string literal first. QA on nedbat/coveragepy: lab/show_pyc.py (a path
holding `show`) ranked above cmdline.py, declaring `"-m", "--show-missing"`."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.flag_files import flag_files
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig
from tests.streams.symbol_records import views_holding

pytestmark = pytest.mark.anyio

FILES = {
    "tool/cmdline.py": (
        "import optparse\n\n\n"
        "class Opts:\n"
        "    show_missing = optparse.make_option(\n"
        '        "-m",\n'
        '        "--show-missing",\n'
        '        action="store_true",\n'
        '        help="Show line numbers of statements that were not run.",\n'
        "    )\n"
        + "".join(f"\n\ndef helper_{n}(value):\n    return value * {n}\n" for n in range(30))
    ),
    "lab/show_flags.py": (
        '"""Show the flags of a file: show what is missing, show each flag."""\n\n\n'
        "def show_flag(flag, missing):\n"
        "    # show the flag, and whether it is missing\n"
        "    return flag if not missing else None\n"
    ),
    "doc/cmd.rst": "Reporting\n=========\n\nUse ``--show-missing`` to list the missing lines.\n",
    "tests/test_cmdline.py": 'def test_show_missing():\n    run(["report", "--show-missing"])\n',
}


async def test_a_question_naming_a_flag_ranks_its_declaring_file_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "where is the --show-missing flag"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[0] == "tool/cmdline.py", paths


def test_the_files_writing_the_flag_in_quotes_are_named(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        named = partial(flag_files, repo_id="r")
        assert store.read(partial(named, query="where is the --show-missing flag")) == {
            "tool/cmdline.py"
        }
        assert store.read(partial(named, query="--show-missing")) == {"tool/cmdline.py"}
        # a change request, a flag no file declares, and no flag name none
        for query in (
            "Fix --show-missing with branches",
            "where is the --show-partial flag",
            "where is show_missing",
        ):
            assert store.read(partial(named, query=query)) == set(), query
