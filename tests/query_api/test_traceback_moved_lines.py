"""A Python traceback's frame quotes the line it ran; when the repository's file holds other
code at that line number (the trace comes from another version: an installed release, an
older checkout), the hit points at the quoted line nearest it and the note says so. QA on
Textualize/rich: a trace from an installed rich naming `rich/table.py`, line 560 (`width_ranges
= [`) pointed the hit at line 560 of the checkout, `max_width,`, where that code is at 529."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.named_lines import Place, written_places
from schemas import tools as t
from tests.query_api.located import placed_hit

PATH = "pkg/table.py"
BODY = "".join(
    [
        "class Table:\n",
        "    def measure(self, widths):\n",
        *[f"        step_{i} = {i}\n" for i in range(20)],
        "        width_ranges = [\n",  # line 23
        "            w for w in widths\n",
        "        ]\n",
        "        return width_ranges\n",
        *[f"    # note {i}\n" for i in range(20)],
        "    def render(self):\n",  # line 47
        "        width_ranges = [\n",  # line 48: the same code, farther from 30
        "            1\n",
        "        ]\n",
        "        return width_ranges\n",
    ]
)

TRACE = """Traceback (most recent call last):
  File "/venv/lib/python3.12/site-packages/pkg/table.py", line {line}, in measure
    width_ranges = [
ZeroDivisionError: division by zero"""


def _answer(tmp_path: Path, query: str) -> tuple[t.SearchHit, str | None]:
    return placed_hit(tmp_path, PATH, BODY, query)


def test_a_frame_whose_line_holds_other_code_points_at_its_quoted_line(tmp_path: Path) -> None:
    hit, note = _answer(tmp_path, TRACE.format(line=30))
    assert (hit.startLine, hit.endLine) == (23, 23)
    assert hit.snippet is not None and hit.snippet.startswith("23: width_ranges = [")
    assert note is not None and "line 30" in note and "23" in note, note


def test_a_frame_whose_line_holds_its_code_stays_there(tmp_path: Path) -> None:
    hit, note = _answer(tmp_path, TRACE.format(line=48))
    assert (hit.startLine, hit.endLine, note) == (48, 48, None)


def test_a_frame_whose_quoted_line_is_nowhere_keeps_its_line_and_says_so(tmp_path: Path) -> None:
    """QA on fastapi/typer: a frame of typer/main.py whose code is gone from the checkout
    pointed at the comment its line number holds here, and said nothing of it."""
    hit, note = _answer(tmp_path, TRACE.format(line=30).replace("width_ranges = [", "gone()"))
    assert hit.startLine == 30
    assert note is not None and "line 30 holds other code" in note and "gone()" in note, note


def test_a_quoted_line_is_found_without_its_trailing_comment(tmp_path: Path) -> None:
    """QA on fastapi/typer: a frame quoting `raise AssertionError("A _click.Parameter should
    be returned")` was not found at typer/main.py's line 1794, which ends `# pragma: no
    cover`; a release adds and drops such comments."""
    commented = BODY.replace("        width_ranges = [\n", "        width_ranges = [  # noqa\n", 1)
    hit, note = placed_hit(tmp_path, PATH, commented, TRACE.format(line=30))
    assert (hit.startLine, hit.endLine) == (23, 23)
    assert note is not None and "is line 23 here" in note, note
    quoted = TRACE.format(line=23).replace("width_ranges = [", "width_ranges = [  # type: ignore")
    (tmp_path / "again").mkdir()
    hit, note = _answer(tmp_path / "again", quoted)
    assert (hit.startLine, note) == (23, None)


def test_a_frame_past_the_end_is_found_by_its_quoted_line(tmp_path: Path) -> None:
    hit, note = _answer(tmp_path, TRACE.format(line=900))
    assert hit.startLine == 48 and note is not None and "48" in note, note


def test_the_quoted_line_is_not_part_of_the_place() -> None:
    """Places compare by file and lines, as before: a bundle's spans read them alike."""
    assert written_places(TRACE.format(line=30)) == [
        Place("/venv/lib/python3.12/site-packages/pkg/table.py", 30, 30)
    ]


def test_a_frame_without_its_code_quotes_nothing() -> None:
    """A frame of code Python could not read is followed by the next frame at once."""
    trace = 'File "a.py", line 3, in f\n  File "b.py", line 4, in g\n    g()\n'
    assert [(p.path, p.quoted) for p in written_places(trace)] == [("b.py", "g()"), ("a.py", "")]
