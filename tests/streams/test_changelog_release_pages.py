"""A changelog folder of pages named by release, with no index page, has its newest releases
for the changelog. QA on sinclairzx81/typebox (changelog/1.0.0.md ... 1.3.0.md, legacy/ for
the older): `where is the changelog` named no file and answered a source file first."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.changelog_files import changelog_files, is_changelog
from tests.streams.symbol_records import views_holding

FILES = {
    "changelog/1.0.0.md": "## 1.0.0\n\nThe first release of the new line.\n",
    "changelog/1.0.0-migration.md": "## Migrating to 1.0.0\n",
    "changelog/1.2.0.md": "## 1.2.0\n\n- Union priority sort\n",
    "changelog/1.10.0.md": "## 1.10.0\n\n- Refs\n",
    "changelog/legacy/0.34.0.md": "## 0.34.0\n",
    "src/value/repair.ts": "// Repairs a value; see the changelog for migration notes\nexport {}\n",
}


def test_the_newest_release_pages_are_the_changelog(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        found = store.read(lambda c: changelog_files(c, "r", "where is the changelog"))
    assert found == ["changelog/1.10.0.md", "changelog/1.2.0.md", "changelog/1.0.0.md"], found
    assert is_changelog("changelog/1.10.0.md") and is_changelog("docs/changelog/v2.0.rst")
    assert not is_changelog("src/1.0.0.md") and not is_changelog("changelog/notes.md")


def test_a_changelog_file_still_comes_before_release_pages(tmp_path: Path) -> None:
    files = {**FILES, "CHANGELOG.md": "# Changelog\n\n## 1.10.0\n"}
    with views_holding(tmp_path, files) as store:
        found = store.read(lambda c: changelog_files(c, "r", "where is the changelog"))
    assert found == ["CHANGELOG.md"], found
