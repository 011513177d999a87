"""A repository keeping its release notes as a folder of pages, one per release, has that
folder's index page as its changelog, before a page merely named `releases`. QA on
PyCQA/flake8: `where is the changelog` and `where are the release notes` named
docs/source/internal/releases.rst (`Releasing Flake8`, how to cut a release) and never
docs/source/release-notes/index.rst, the history listing every release newest first."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from streams.stores.views.changelog_files import changelog_files, is_changelog
from tests.streams.symbol_records import views_holding

FILES = {
    "docs/source/release-notes/index.rst": "Release Notes and History\n\n.. toctree::\n   7.3.0\n",
    "docs/source/release-notes/7.3.0.rst": "7.3.0 -- 2025-06-20\n\n- new pycodestyle\n",
    "docs/source/release-notes/7.2.0.rst": "7.2.0 -- 2025-03-29\n\n- python 3.14\n",
    "docs/source/internal/releases.rst": "Releasing Flake8\n\nTag the release, then upload.\n",
    "src/tool/__init__.py": '__version__ = "7.3.0"\n',
}


def test_a_release_notes_folders_index_is_the_changelog(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        for query in ("where is the changelog", "where are the release notes"):
            found = store.read(partial(changelog_files, repo_id="r", query=query))
            assert found == ["docs/source/release-notes/index.rst"], (query, found)
    assert is_changelog("docs/source/release-notes/index.rst")
    assert not is_changelog("docs/source/index.rst")


def test_without_an_index_the_one_page_named_so_is_still_found(tmp_path: Path) -> None:
    files = {p: t for p, t in FILES.items() if not p.endswith("index.rst")}
    with views_holding(tmp_path, files) as store:
        found = store.read(lambda c: changelog_files(c, "r", "where is the changelog"))
        assert found == ["docs/source/internal/releases.rst"], found
