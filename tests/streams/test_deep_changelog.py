"""A repository whose one changelog lies deeper than one folder (a docs site's
docs/content/news.md) has that file as its changelog. QA on benoitc/gunicorn: `where is the
changelog` named no file (only the root's and one folder down were looked at) and answered
config.py, workers/sync.py and arbiter.py."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.changelog_files import changelog_files
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding

FILES = {
    "docs/content/news.md": "# Changelog\n\n## 26.1.0 - 2026-08-18\n\n- glob patterns\n",
    "docs/content/2024-news.md": "# 2024\n\n## 23.0.0\n",
    "docs/content/index.md": "# Gunicorn\n\nA WSGI server.\n",
    "app/config.py": "# a change to the log configuration takes effect on reload\nLOG = 1\n",
}


def test_the_one_changelog_deeper_down_is_the_changelog(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        found = store.read(lambda c: changelog_files(c, "r", "where is the changelog"))
        assert found == ["docs/content/news.md"]
        hits = keyword_hits(store, "r", "where is the changelog", 10)
        assert hits[0].path == "docs/content/news.md", [h.path for h in hits]


def test_two_changelogs_deeper_down_name_none(tmp_path: Path) -> None:
    files = {**FILES, "site/content/news.md": "# News\n"}
    with views_holding(tmp_path, files) as store:
        assert store.read(lambda c: changelog_files(c, "r", "where is the changelog")) == []
