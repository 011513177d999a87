"""A pasted exception group's traceback (Python 3.11+) prints each frame, quoted line and error
line behind a `|` gutter. QA on python-attrs/cattrs: such a trace said converters.py line 716
"holds other code than the traceback quotes (`|     return cl(obj)`)" where it holds that
code, and its innermost error's message, which errors.py writes, was "written by no file
here" (query_api/retrieval/group_gutters.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.group_gutters import without_gutters
from query_api.retrieval.named_lines import written_places
from query_api.retrieval.pasted_message import message_queries
from query_api.retrieval.unwritten_message import NOTE
from schemas import tools as t
from tests.ingested import indexed_app
from tests.query_api.located import placed_hit

CONVERT = "".join(
    [
        "def structure(obj, cl):\n",
        *[f"    step_{i} = {i}\n" for i in range(10)],
        "    return cl(obj)\n",  # line 12
    ]
)
ERRORS = (
    "class ExtraKeysError(Exception):\n"
    "    def __str__(self):\n"
    '        return f"Extra fields in constructor for {self.cl.__name__}: {self.extra}"\n'
)

GROUP = """  + Exception Group Traceback (most recent call last):
  |   File "/app/load.py", line 3, in <module>
  |     load()
  |   File "/venv/lib/python3.12/site-packages/pkg/convert.py", line 12, in structure
  |     return cl(obj)
  |            ^^^^^^^
  | pkg.errors.ClassValidationError: While structuring Outer (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/venv/lib/python3.12/site-packages/pkg/convert.py", line 12, in structure
    |     return cl(obj)
    | ValueError: invalid literal for int() with base 10: 'b'
    +---------------- 2 ----------------
    | pkg.errors.ExtraKeysError: Extra fields in constructor for Inner: y
    +------------------------------------"""


def test_a_frame_behind_the_gutter_quotes_its_code() -> None:
    places = written_places(GROUP)
    assert [(p.path, p.first, p.quoted) for p in places[:2]] == [
        ("/venv/lib/python3.12/site-packages/pkg/convert.py", 12, "return cl(obj)"),
        ("/app/load.py", 3, "load()"),
    ]


def test_a_frame_holding_its_quoted_code_gets_no_note(tmp_path: Path) -> None:
    hit, note = placed_hit(tmp_path, "pkg/convert.py", CONVERT, GROUP)
    assert (hit.startLine, hit.endLine) == (12, 12)
    assert note is None, note


def test_the_messages_behind_the_gutter_are_read() -> None:
    """Each error line opens with its class once the gutter is off, and the count Python
    appends to the group's message (`(2 sub-exceptions)`) is no word of its source."""
    asked = " ".join(message_queries(GROUP))
    assert '"extra fields in constructor for' in asked, asked
    assert "sub" not in asked, asked


def test_a_plain_traceback_is_read_as_it_is() -> None:
    plain = 'Traceback (most recent call last):\n  File "a.py", line 3, in f\n    | x\n'
    assert without_gutters(plain) == plain


@pytest.mark.anyio
async def test_the_message_a_file_writes_is_found_behind_the_gutter(tmp_path: Path) -> None:
    files = {"pkg/convert.py": CONVERT, "pkg/errors.py": ERRORS}
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=GROUP))
    assert NOTE not in (answer.note or ""), answer.note
    assert "holds other code" not in (answer.note or ""), answer.note
    assert {hit.entry.path for hit in answer.hits[:2]} == {"pkg/convert.py", "pkg/errors.py"}
