"""A repository whose one changelog lies deeper than one folder (a docs site's
docs/content/news.md) has that file as its changelog. QA on benoitc/gunicorn: `where is the
changelog` named no file (only the root's and one folder down were looked at) and answered
config.py, workers/sync.py and arbiter.py."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.changelog_files import changelog_files
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

FILES = {
    "docs/content/news.md": "# Changelog\n\n## 26.1.0 - 2026-08-18\n\n- glob patterns\n",
    "docs/content/2024-news.md": "# 2024\n\n## 23.0.0\n",
    "docs/content/index.md": "# Gunicorn\n\nA WSGI server.\n",
    "app/config.py": "# a change to the log configuration takes effect on reload\nLOG = 1\n",
}


def _store(tmp_path: Path, files: dict[str, str]) -> ViewStore:
    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
    return store


def test_the_one_changelog_deeper_down_is_the_changelog(tmp_path: Path) -> None:
    with _store(tmp_path, FILES) as store:
        found = store.read(lambda c: changelog_files(c, "r", "where is the changelog"))
        assert found == ["docs/content/news.md"]
        hits = keyword_hits(store, "r", "where is the changelog", 10)
        assert hits[0].path == "docs/content/news.md", [h.path for h in hits]


def test_two_changelogs_deeper_down_name_none(tmp_path: Path) -> None:
    files = {**FILES, "site/content/news.md": "# News\n"}
    with _store(tmp_path, files) as store:
        assert store.read(lambda c: changelog_files(c, "r", "where is the changelog")) == []
