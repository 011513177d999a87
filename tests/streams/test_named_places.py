"""A query that is a path with a place in it (`src/jinja2/tests.py:120`, `app.ts#L12-L30`,
as the search's text answer, editors and stack traces write it) names that file as the path
alone does. QA on pallets/jinja: `src/jinja2/tests.py:120` ranked src/jinja2/__init__.py
first and `src/jinja2/utils.py:460` put utils.py 4th, where the bare paths ranked theirs
first: the line suffix made the query no path."""

from __future__ import annotations

from pathlib import Path

import pytest

from streams.stores.views.named_files import without_place
from tests.streams.test_search_ranking import ranked_over

FILES = {
    # a long module: its path's words weigh little against its body's
    "src/pkg/tests.py": "".join(
        f"def test_odd_{n}(value):\n    return value % {n} == 1\n" for n in range(2, 120)
    ),
    # a short one re-exporting the package's modules, saying `pkg` and `tests` often
    "src/pkg/__init__.py": (
        "from .tests import test_odd_2 as test_odd_2\n"
        "from .utils import pick as pick\n"
        '__all__ = ["pkg", "tests", "utils"]\n'
        '__doc__ = "pkg: the pkg tests, pkg utils"\n'
    ),
    "src/pkg/utils.py": "def pick(value):\n    return value\n",
}


@pytest.mark.parametrize(
    "query",
    [
        "src/pkg/tests.py",
        "src/pkg/tests.py:2",
        "src/pkg/tests.py:1:5",
        "src/pkg/tests.py:1-2",
        "src/pkg/tests.py#L2",
        "src/pkg/tests.py#L1-L2",
        "pkg/tests.py:2",
    ],
)
def test_a_path_with_a_place_ranks_its_file_first(tmp_path: Path, query: str) -> None:
    [order] = ranked_over(tmp_path, FILES, query)
    assert order[0] == "src/pkg/tests.py", order


def test_the_path_a_place_is_written_in() -> None:
    assert without_place("src/pkg/tests.py:120") == "src/pkg/tests.py"
    assert without_place("src/pkg/tests.py:12:5") == "src/pkg/tests.py"
    assert without_place("src/pkg/tests.py#L12-L30") == "src/pkg/tests.py"
    assert without_place("src/pkg/tests.py") == "src/pkg/tests.py"
    assert without_place(":12") == ":12"  # no path before it: nothing taken off
