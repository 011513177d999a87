"""The `symbol:` reason naming the declaration that holds a place the query names comes
before `content-match`, as every hit's reasons are ordered (path-name-match, symbol:...,
content-match), and is not the one cut when a hit has its most reasons. QA on pallets/
werkzeug: `serving.py line 323` and `utils.py:100` showed `..., path-name-match,
content-match, symbol:werkzeug.serving.WSGIRequestHandler.run_wsgi.start_response`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from query_api.retrieval.named_lines import at_named_lines
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import file_hit
from tests.streams.symbol_records import records

BODY = "\n".join(
    [
        "def start_response(status: str) -> None:",  # 1
        "    if status:",  # 2
        "        raise AssertionError('Headers already set')",  # 3
        "",
    ]
)


def test_the_holders_reason_comes_before_content_match(tmp_path: Path) -> None:
    reasons = ("semantic", "chunk:file", "keyword-fused", "path-name-match", "content-match")
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/pkg/serving.py", BODY), {})
        locator = HitLocator(views)
        query = "serving.py line 3"
        hits = enrich(
            locator, "r", query, [file_hit("src/pkg/serving.py", reasons)], details=True
        ).hits
        [hit], _ = at_named_lines(locator, "r", query, hits)
    assert hit.reasons == [
        "semantic",
        "chunk:file",
        "keyword-fused",
        "path-name-match",
        "symbol:pkg.serving.start_response",
        "content-match",
    ], hit.reasons
