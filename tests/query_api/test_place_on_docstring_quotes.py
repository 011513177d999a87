"""A place on a line holding only a docstring's or comment's closing marks (`\"\"\"`, `'''`,
`*/`) shows the code around it, as a place on a closing brace does. QA on Textualize/rich:
mypy's `rich/progress.py:1075: error: ...` answered the snippet `1075: \"\"\"` alone."""

from __future__ import annotations

from pathlib import Path

from schemas import tools as t
from tests.query_api.located import placed_hit

PATH = "pkg/progress.py"
BODY = "\n".join(
    [
        "class Progress:",  # 1
        '    """Renders progress.',  # 2
        "",  # 3
        "    Args:",  # 4
        "        expand (bool): Expand the table.",  # 5
        '    """',  # 6
        "",  # 7
        "    def __init__(self, expand: bool) -> None:",  # 8
        "        self.expand = expand",  # 9
        "",
    ]
)


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    return placed_hit(tmp_path, PATH, BODY, query)[0]


def test_a_place_on_closing_quotes_shows_the_code_around_them(tmp_path: Path) -> None:
    for query in ("pkg/progress.py:6", "pkg/progress.py:6: error: Incompatible return value"):
        hit = _hit(tmp_path, query)
        assert (hit.startLine, hit.endLine) == (6, 6), query
        assert hit.snippet == (
            "5: expand (bool): Expand the table.\n"
            '6: """\n'
            "8: def __init__(self, expand: bool) -> None:"
        ), query


def test_a_range_leaves_closing_quotes_out_of_its_snippet(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "pkg/progress.py:5-9")
    assert hit.snippet is not None and '"""' not in hit.snippet, hit.snippet
