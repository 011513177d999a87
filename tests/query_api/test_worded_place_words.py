"""A place written in words (`line 167 of markup.py`, `markup.py line 167`, `lines 3-9 in
app.py`) names the file's lines; its `line` and numbers are no words to match other files'
lines by. QA on Textualize/rich: `what does line 167 of markup.py do` pointed rich/traceback.py
at `line: str = ""`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import written_places
from query_api.retrieval.place_numbers import without_place_numbers
from tests.query_api.located import located_hits

BODY = (
    "def frame():\n"
    "    last = line_no + 167  # the line\n"  # 2: `line` and `167`
    "    return last\n"
    "\n"
    "\n"
    "def shown():\n"
    "    return markup_text\n"  # 7: `markup`
)


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("what does line 167 of markup.py do", "what does markup.py do"),
        ("why does markup.py line 167 raise?", "why does markup.py raise?"),
        ("explain lines 3-9 in app.py", "explain app.py"),
        ("fix the line width", "fix the line width"),  # no place: the word stays
    ],
)
def test_a_worded_place_leaves_its_line_words_out(query: str, kept: str) -> None:
    assert " ".join(without_place_numbers(query).split()) == kept


def test_another_files_lines_are_not_picked_by_the_place_words(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {"pkg/trace.py": BODY}, "what does line 167 of markup.py do")
    assert hit.snippet is not None and hit.snippet.startswith("7: return markup_text"), hit


def test_a_text_writing_no_line_is_read_for_no_place() -> None:
    """A place in words writes `line N`; a text without it is not read for one: the file's
    pattern, tried from every place of a long run of `-` or `\\`, read on to the run's end."""

    for run in ("-" * 4096, "\\" * 4096, "a." * 2048):
        assert without_place_numbers(run) == run
        assert written_places(run) == []
