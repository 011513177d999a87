"""Search hits over real views, for tests of where a hit points: the files' records come from
the real processors, each file is one hit as the ladder hands it over, and the hits are
detailed as search details them, then passed through the step under test (at_definitions,
at_use_sites, ...)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from query_api.retrieval.named_lines import at_named_lines
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

Step = Callable[[HitLocator, str, str, list[t.SearchHit]], list[t.SearchHit]]


def file_hit(path: str, reasons: tuple[str, ...] = ("content-match",)) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=1.0, entry=entry, reasons=list(reasons))


def located_hits(
    tmp_path: Path, files: Mapping[str, str], query: str, step: Step | None = None
) -> list[t.SearchHit]:
    """One hit per file of `files` (path -> body), in their order, detailed for `query`, then
    through `step` when given."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        locator = HitLocator(views)
        hits = enrich(locator, "r", query, [file_hit(p) for p in files], details=True).hits
        return step(locator, "r", query, hits) if step is not None else hits


def placed_hit(
    tmp_path: Path,
    path: str,
    body: str,
    query: str,
    reasons: tuple[str, ...] = ("path-name-match",),
) -> tuple[t.SearchHit, str | None]:
    """The one hit of a file at the place `query` names (`src/app.py:12`, a traceback's
    frame), detailed for it and pointed by at_named_lines, and that step's note."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(path, body), {})
        locator = HitLocator(views)
        hits = enrich(locator, "r", query, [file_hit(path, reasons)], details=True).hits
        [shown], note = at_named_lines(locator, "r", query, hits)
        return shown, note
