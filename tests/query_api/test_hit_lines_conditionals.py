"""A request's `if` (`Guess the scheme if r.URL.Scheme is unset`) picks no hit lines: it is
a keyword of every language's conditionals and a word of many comments. QA on gorilla/mux:
that request pointed mux.go at `// If true, do not clear the request context after handling
the request.` (the Router struct), not at its scheme lines; the same request written with
`when` pointed at `func (r *Router) Schemes(...)`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "mux.go"
BODY = "\n".join(
    [
        "package mux",  # 1
        "",
        "type Router struct {",  # 3
        "\t// If true, do not clear the request context.",  # 4
        "\tKeepContext bool",  # 5
        "}",  # 6
        "",
        "type routeConf struct {",  # 8
        "\t// The scheme used when building URLs.",  # 9
        "\tbuildScheme string",  # 10
        "}",  # 11
        "",
    ]
)


def test_if_picks_no_hit_lines(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, BODY), {})
        entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["content-match"])
        query = "Guess the scheme if the scheme is unset"
        [shown] = enrich(HitLocator(views), "r", query, [hit], details=True).hits
        assert shown.snippet is not None and "If true" not in shown.snippet, shown
        assert shown.startLine is not None and shown.startLine >= 8, shown
        assert "buildScheme" in shown.snippet, shown
