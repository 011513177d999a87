"""A one-line message whose words run to a colon and a quoted value (`No source for code:
'/tmp/gen.py'.`, `Couldn't parse '/tmp/x.py' as Python source: 'invalid syntax' at line 3`)
is a pasted message, as a CLI prints an exception's text with no class before it. QA on
nedbat/coveragepy: both asked for no file, and a build script ranked first above python.py and
parser.py, the files writing them (the second across two f-strings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILLER = "".join(f"\n\ndef helper_{n}(value):\n    return value * {n} + 1\n" for n in range(30))
FILES = {
    "pkg/python.py": (
        "from pkg.exceptions import NoSource\n\n\n"
        "def get_python_source(filename):\n"
        "    for try_filename in [filename]:\n"
        "        pass\n"
        "    else:\n"
        "        # Couldn't find source.\n"
        '        raise NoSource(f"No source for code: \'{filename}\'.", slug="no-source")\n'
        + FILLER
    ),
    "pkg/parser.py": (
        "import ast\n\n\n"
        "class PythonParser:\n"
        "    def parse_source(self):\n"
        "        try:\n"
        "            ast.parse(self.text)\n"
        "        except SyntaxError as err:\n"
        "            lineno = err.lineno\n"
        "            raise NotPython(\n"
        "                f\"Couldn't parse '{self.filename}' as Python source: \"\n"
        '                + f"{err.args[0]!r} at line {lineno}",\n'
        "            ) from err\n" + FILLER
    ),
    "pkg/sqlitedb.py": (
        "class SqliteDb:\n"
        "    def _connect(self):\n"
        "        try:\n"
        "            self.con = connect(self.filename)\n"
        "        except Error as exc:\n"
        "            raise DataError(\n"
        '                f"Couldn\'t use data file {self.filename!r}: {exc}"\n'
        "            ) from exc\n" + FILLER
    ),
    # a module holding the words of the database message apart, many times
    "pkg/data.py": (
        '"""The data file: a database file we use, not a file of data the database is."""\n\n'
        "def data_file(use):\n    # use the data file if the database file is a file\n"
        "    return use  # a data file, a database, a file: use it\n"
    ),
    # a build script holding the message's words apart: source for code, parse, line
    "build.py": (
        '"""Build the source for code coverage: parse the options, check syntax."""\n\n'
        "def run(source, code, line):\n"
        "    # the source for code that is invalid: parse it again at that line\n"
        "    return source, code, line  # no source, invalid syntax, python source\n"
    ),
}
NO_SOURCE = "No source for code: '/tmp/gen.py'."
NOT_PYTHON = "Couldn't parse '/tmp/x.py' as Python source: 'invalid syntax' at line 3"
# the value before the colon, another library's text after it
NO_DATABASE = "Couldn't use data file '/tmp/.coverage': file is not a database"


async def test_a_message_with_its_value_after_a_colon_ranks_its_writer_first(
    tmp_path: Path,
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query, writer in (
            (NO_SOURCE, "pkg/python.py"),
            (NOT_PYTHON, "pkg/parser.py"),
            (NO_DATABASE, "pkg/sqlitedb.py"),
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            paths = [h["entry"]["path"] for h in found["hits"]]
            assert paths[0] == writer, (query, found["hits"])


@pytest.mark.parametrize(
    "query",
    [
        "fix: 'black' formatter is broken",  # a conventional commit's type before the colon
        "Add support for 'pyproject.toml'",  # no colon before the value
        "Fix 'foo': handle bar",  # a value and a colon, two words: no message's
        "No source for code: '/tmp/gen.py'.\nsecond line",  # two lines, no marker
    ],
)
def test_other_text_is_no_such_message(query: str) -> None:
    assert message_queries(query) == []
