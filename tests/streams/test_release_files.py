"""A release request (`Release 5.0.4`, `bump version to 7.4.0`) names the files declaring the
project's version and the release notes named for it. QA on PyCQA/flake8: `Release 5.0.4`
ranked .pylintrc, checker.py and api/legacy.py first and src/flake8/__init__.py (`__version__`),
which every release commit changed, outside the first ten."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.release_files import release_files, released_version
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding

FILES = {
    "src/tool/__init__.py": '"""The tool."""\n__version__ = "5.0.3"\n',
    "src/tool/checker.py": "def release(pool):\n    # release the pool\n    return pool\n",
    **{
        f"src/tool/pool{i}.py": f"def release_{i}(pool):\n    # release 5 of {i} pools\n"
        "    return pool.release(5, 0, 4)\n"
        for i in range(6)
    },
    "setup.cfg": "[metadata]\nname = tool\nversion = attr: tool.__version__\n",
    "docs/release-notes/5.0.4.rst": "5.0.4 -- 2022-08-03\n\n- fix a crash\n",
    "docs/release-notes/5.0.3.rst": "5.0.3 -- 2022-08-01\n\n- fix\n",
    "tests/test_version.py": '__version__ = "0.0.0"\n',
    "example-plugin/setup.py": 'setup(name="example", version="1.0.0")\n',
}


@pytest.mark.parametrize(
    ("query", "version"),
    [
        ("Release 5.0.4", "5.0.4"),
        ("chore(release): bump version to 7.4.0", "7.4.0"),
        ("prepare release v2.1.0-rc1", "2.1.0-rc1"),
        ("docs: prep for 7.11.3", "7.11.3"),  # QA on nedbat/coveragepy's release commits
        ("prepare for release 2.0", "2.0"),
        ("prep for the new parser", None),
        ("Release the pool after checking", None),
        ("release 5.0.4 notes for the checker", None),
    ],
)
def test_a_release_request_names_its_version(query: str, version: str | None) -> None:
    assert released_version(query) == version


def test_a_release_request_names_the_version_and_its_notes(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        found = store.read(partial(release_files, repo_id="r", query="Release 5.0.4"))
        assert found == ["src/tool/__init__.py", "docs/release-notes/5.0.4.rst"], found
        hits = keyword_hits(store, "r", "Release 5.0.4", 10)
        assert hits[0].path == "src/tool/__init__.py", [h.path for h in hits]


def test_a_manifest_writing_its_version_is_named(tmp_path: Path) -> None:
    files = {"package.json": '{\n  "name": "tool",\n  "version": "1.2.3"\n}\n'}
    with views_holding(tmp_path, files) as store:
        found = store.read(partial(release_files, repo_id="r", query="bump version to 1.3.0"))
        assert found == ["package.json"], found
