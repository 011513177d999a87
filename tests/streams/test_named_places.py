"""A query that is a path with a place in it (`src/jinja2/tests.py:120`, `app.ts#L12-L30`,
as the search's text answer, editors and stack traces write it) names that file as the path
alone does. QA on pallets/jinja: `src/jinja2/tests.py:120` ranked src/jinja2/__init__.py
first and `src/jinja2/utils.py:460` put utils.py 4th, where the bare paths ranked theirs
first: the line suffix made the query no path. An absolute path of the checkout
(`/tmp/qa-jinja/src/src/jinja2/runtime.py:860`, as a traceback or an editor writes it) names
the file it ends with: it ranked __init__.py first."""

from __future__ import annotations

from pathlib import Path

import pytest

from streams.stores.views.handlers import default_registry
from streams.stores.views.named_files import path_named_files, without_place
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records
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
        "/home/dev/proj/src/pkg/tests.py",
        "/home/dev/proj/src/pkg/tests.py:2",
        "~/proj/src/pkg/tests.py#L2",
        "C:\\proj\\src\\pkg\\tests.py:2",
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


def test_an_absolute_path_names_the_files_it_ends_with(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})

        def named(query: str) -> list[str]:
            return store.read(lambda conn: path_named_files(conn, "r", query))

        assert named("/home/dev/proj/src/pkg/tests.py:2") == ["src/pkg/tests.py"]
        assert named("/home/dev/other/lib/tests.py") == []  # no indexed file it ends with
        assert named("home/dev/proj/src/pkg/tests.py") == []  # relative: the path as written


CASES = {
    "CHANGES.rst": "Version 3.1.5\n-------------\n\n-   The xmlattr filter rejects keys.\n",
    # includes the changelog into the docs: says `changes` as often
    "docs/changes.rst": "Changes\n=======\n\n.. include:: ../CHANGES.rst\n",
    "src/pkg/tests.py": "def test_odd(value):\n    return value\n",
}


def test_a_path_written_in_its_case_names_that_file(tmp_path: Path) -> None:
    """QA on pallets/jinja: the query `CHANGES.rst` ranked docs/changes.rst first: it ends
    with `changes.rst` once both are lower-cased. A path matching as written wins over one
    matching only so; written in lower case, both are meant alike."""
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in CASES.items() for rec in records(path, body)], {})

        def named(query: str) -> list[str]:
            return store.read(lambda conn: path_named_files(conn, "r", query))

        assert named("CHANGES.rst") == ["CHANGES.rst"]
        assert named("docs/changes.rst") == ["docs/changes.rst"]
        assert named("changes.rst") == ["docs/changes.rst"]  # as written, in lower case
        assert named("Changes.RST") == ["CHANGES.rst", "docs/changes.rst"]  # neither as written
