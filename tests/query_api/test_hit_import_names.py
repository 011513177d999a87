"""Every search hit names Python declarations as code imports them, not only the first
DETAILED_HITS (query_api/retrieval/hit_details.py): on jinja, hits 11 and 12 of "test_urlize"
gave `symbol:src.jinja2.tests.test_odd` and `symbol:tests.test_utils.TestEscapeUrlizeTarget`
where the first ten said `jinja2.tests...` and `test_utils...`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import DETAILED_HITS, HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "src/jinja2/tests.py"


def _file_hit() -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
    return t.SearchHit(score=1.0, entry=entry, reasons=["symbol:src.jinja2.tests.test_odd"])


def _symbol_hit() -> t.SearchHit:
    entry = t.EntryView(
        key="repo/r/symbol/src.jinja2.tests.test_odd",
        exists=True,
        kind="Symbol",
        path=PATH,
        fullyQualifiedName="src.jinja2.tests.test_odd",
    )
    return t.SearchHit(score=1.0, entry=entry, reasons=["content-match"])


def test_hits_past_the_detailed_ones_name_declarations_as_imported(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/jinja2/__init__.py", '"""Jinja."""\n'), {})
        views.apply(records(PATH, "def test_odd(value):\n    return value % 2 == 1\n"), {})
        hits = [_file_hit() for _ in range(DETAILED_HITS)] + [_file_hit(), _symbol_hit()]
        shown = enrich(HitLocator(views), "r", "test_odd", hits, details=True).hits
        assert [h.reasons for h in shown] == [["symbol:jinja2.tests.test_odd"]] * 11 + [
            ["content-match"]
        ]
        assert shown[-1].entry.fullyQualifiedName == "jinja2.tests.test_odd"
        assert shown[-1].entry.key == "repo/r/symbol/src.jinja2.tests.test_odd"  # stored
        assert shown[-1].startLine is None  # past the detailed ones: no lines
