"""pytest's short traceback (`--tb=short`, and each frame of a failure's report) writes a frame
as `path.py:LINE: in function` with the code it ran below it; that code is read as a Python
traceback's is, so a frame from another version of the file points at the line holding it.
QA on python-jsonschema/jsonschema: a pasted `jsonschema/exceptions.py:468: in best_match`
quoting `best = max(errors, key=key, default=None)` pointed exceptions.py at line 468 of the
checkout, a docstring's `done by this function.`, where that code is 11 lines below."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.named_lines import written_places
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
    ]
)

SHORT = """________________ TestTable.test_measure ________________
tests/test_table.py:12: in test_measure
    Table().measure([])
pkg/table.py:{line}: in measure
    width_ranges = [
E   ZeroDivisionError: division by zero"""


def test_a_pytest_frame_quotes_its_code() -> None:
    places = written_places(SHORT.format(line=30))
    assert [(p.path, p.first, p.quoted) for p in places][:2] == [
        ("pkg/table.py", 30, "width_ranges = ["),
        ("tests/test_table.py", 12, "Table().measure([])"),
    ]


def test_a_moved_pytest_frame_points_at_its_quoted_line(tmp_path: Path) -> None:
    hit, note = placed_hit(tmp_path, PATH, BODY, SHORT.format(line=30))
    assert (hit.startLine, hit.endLine) == (23, 23)
    assert hit.snippet is not None and hit.snippet.startswith("23: width_ranges = [")
    assert note is not None and "line 30" in note and "23" in note, note
