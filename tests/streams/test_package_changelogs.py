"""A monorepo keeps one changelog per package (packages/app/CHANGELOG.md) and none at its
root. QA on tinyhttp/tinyhttp: `changelog for the app package` ranked packages/app/CHANGELOG.md
fifth, below four source files of the package, and `where is the changelog of the cookie
package` left packages/cookie/CHANGELOG.md out of the first six: the changelog files named
were those at the root or one folder down only."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.changelog_files import changelog_files
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding

FILES = {
    "packages/app/CHANGELOG.md": "# @tinyhttp/app\n\n## 3.0.1\n\n### Patch Changes\n",
    "packages/app/src/app.ts": "export class App {\n  use() {}\n}\n",
    "packages/app/src/view.ts": "import { App } from './app.js'\nexport class View {}\n",
    "packages/cookie/CHANGELOG.md": "# @tinyhttp/cookie\n\n## 2.1.1\n",
    "packages/cookie/src/index.ts": "export function parse(cookie: string) {}\n",
    "packages/res/src/cookie.ts": "import { parse } from '@tinyhttp/cookie'\nconst cookie = 1\n",
}


def test_the_changelog_of_the_package_a_query_names_ranks_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        for query, want in (
            ("changelog for the app package", "packages/app/CHANGELOG.md"),
            ("where is the changelog of the cookie package", "packages/cookie/CHANGELOG.md"),
            ("release notes of @tinyhttp/cookie", "packages/cookie/CHANGELOG.md"),
        ):
            hits = keyword_hits(store, "r", query, 10)
            assert hits[0].path == want, (query, [h.path for h in hits])


def test_a_package_changelog_is_named_only_for_its_package(tmp_path: Path) -> None:
    """`changelog` alone names no one package's of many, and a root changelog stays the one
    a query naming no package means."""
    with views_holding(tmp_path, FILES) as store:
        assert store.read(lambda c: changelog_files(c, "r", "where is the changelog")) == []
        assert store.read(lambda c: changelog_files(c, "r", "changelog for the parser")) == []
    rooted = {**FILES, "CHANGELOG.md": "# changes\n"}
    (tmp_path / "rooted").mkdir()
    with views_holding(tmp_path / "rooted", rooted) as store:
        found = store.read(lambda c: changelog_files(c, "r", "where is the changelog"))
        assert found == ["CHANGELOG.md"]
        found = store.read(lambda c: changelog_files(c, "r", "changelog of the app package"))
        assert found == ["packages/app/CHANGELOG.md"]
