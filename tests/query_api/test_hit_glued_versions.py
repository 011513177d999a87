"""A version written after a name (`Python3.14`, `py3.8`) and a number inside an identifier
(`python3`, `int64`) pick no hit line by their digits alone, which any line of numbers holds.
QA on Textualize/rich: `bump for Python3.14` pointed rich/traceback.py at `extra_lines: int =
3,` (the `3` of `python3`, searched by its parts) and rich/_unicode_data/_versions.py at
`"14.0.0",` (the `14` of `3.14`)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import query_terms
from tests.query_api.located import located_hits

INSTALL = (
    "def install(\n"
    "    width: int = 100,\n"
    "    extra_lines: int = 3,\n"  # 3: a number only
    "):\n"
    '    """Install the handler (Python only)."""\n'  # 5: the word `python`
    "    return width\n"
)
VERSIONS = 'VERSIONS = [\n    "13.0.0",\n    "14.0.0",\n]\n'


def test_a_version_after_a_name_is_one_term() -> None:
    terms = query_terms("bump for Python3.14")
    assert "14" not in terms.words and "3.14" in terms.identifiers


def test_digits_pick_no_line_by_themselves(tmp_path: Path) -> None:
    [install, versions] = located_hits(
        tmp_path, {"pkg/tb.py": INSTALL, "pkg/versions.py": VERSIONS}, "bump for Python3.14"
    )
    assert install.snippet is not None and install.snippet.startswith("5: "), install
    assert versions.snippet is None or "14.0.0" not in versions.snippet, versions
