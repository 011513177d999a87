"""A message a file builds in parts is no message 'no file here writes': one whose opening
words are a value formatted in (`f"{problem} values in {obj!r} to structure as {tup!r}"`,
`problem = "Not enough"`), or one the project's own exception class carries (`'While
structuring ' + name`, `pkg.errors.ClassValidationError: While structuring Outer`). QA on
python-attrs/cattrs noted both as raised by a dependency (query_api/retrieval/
unwritten_message.py). A builtin's message no file writes keeps the note."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.unwritten_message import NOTE
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

CONVERT = """\
from pkg.errors import ClassValidationError


def structure_tuple(obj, tup, exp_len):
    if len(obj) != exp_len:
        problem = "Not enough" if len(obj) < exp_len else "Too many"
        raise ValueError(f"{problem} values in {obj!r} to structure as {tup!r}")
    return tuple(obj)


def structure_class(cl, errors):
    if errors:
        raise ClassValidationError("While structuring " + cl.__name__, errors, cl)
"""

ERRORS = """\
class ClassValidationError(ExceptionGroup):
    \"\"\"Raised when structuring a class fails.\"\"\"
"""

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\n',
    "src/pkg/__init__.py": "",
    "src/pkg/convert.py": CONVERT,
    "src/pkg/errors.py": ERRORS,
}


async def test_a_message_built_in_parts_is_written_here(tmp_path: Path) -> None:
    queries = [
        "ValueError: Not enough values in [1, 2] to structure as tuple[int, int, int]",
        "pkg.errors.ClassValidationError: While structuring Outer (2 sub-exceptions)",
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
    ]
    async with indexed_app(tmp_path, FILES) as app:
        answers = [
            await app.service.search(t.SearchArgs(repoId="repo", query=query)) for query in queries
        ]
    built, group, builtin = answers
    assert built.hits and NOTE not in (built.note or ""), built.note
    assert group.hits and NOTE not in (group.note or ""), group.note
    if builtin.hits:  # the runtime's message: still noted
        assert NOTE in (builtin.note or ""), builtin.note
