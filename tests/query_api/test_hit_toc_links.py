"""A Markdown table of contents' entry (`* [Middleware](#middleware)`) is where the section
is, not what it says: of lines matching alike a hit points at another. QA on gorilla/mux:
`where is the middleware behaviour documented` pointed README.md at line 32, its contents'
`* [Middleware](#middleware)`, not at the `### Middleware` section (line 509)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "README.md"
BODY = "\n".join(
    [
        "# mux",  # 1
        "",
        "* [Install](#install)",  # 3
        "* [Middleware](#middleware) (e.g. logging)",  # 4
        "",
        "## Install",  # 6
        "",
        "go get it",  # 8
        "",
        "## Middleware",  # 10
        "",
        "Routers run each middleware in the order they are added.",  # 12
        "",
    ]
)


def test_a_contents_entry_loses_to_its_section(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, BODY), {})
        entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["content-match"])
        [shown] = enrich(HitLocator(views), "r", "middleware", [hit], details=True).hits
        assert shown.startLine is not None and shown.startLine >= 10, shown
