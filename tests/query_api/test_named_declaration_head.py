"""A query naming a declaration by a qualified name (`reply::json`) shows the line naming it
(`pub fn json<T>(val: &T) -> Json`) in the hit's snippet, not only a line inside it that
writes the name whole. QA on seanmonstar/warp: `reply::json` pointed src/reply.rs at the right
span, lines 98-107, with the snippet `104: tracing::error!("reply::json error: {}", err);`,
and `body::json` at `tracing::debug!("request json body error: {}", err);`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "src/reply.rs"
BODY = "\n".join(
    [
        "use serde::Serialize;",  # 1
        "",
        "/// Reply with a JSON body.",  # 3
        "#[inline]",  # 4
        "pub fn json<T>(val: &T) -> Json",  # 5
        "where",  # 6
        "    T: Serialize,",  # 7
        "{",  # 8
        "    Json {",  # 9
        "        inner: serde_json::to_vec(val).map_err(|err| {",  # 10
        '            tracing::error!("reply::json error: {}", err);',  # 11
        "        }),",  # 12
        "    }",  # 13
        "}",  # 14
        "",
        "pub struct Json {",  # 16
        "    inner: Result<Vec<u8>, ()>,",  # 17
        "}",  # 18
        "",
    ]
)


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, BODY), {})
        entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["path-name-match", "symbol:json"])
        [shown] = enrich(HitLocator(views), "r", query, [hit], details=True).hits
        return shown


def test_a_qualified_names_snippet_holds_the_line_naming_the_declaration(
    tmp_path: Path,
) -> None:
    hit = _hit(tmp_path, "reply::json")
    assert hit.startLine == 4 and hit.endLine == 14, hit  # the declaration, as before
    assert hit.snippet is not None, hit
    shown = hit.snippet.split("\n")
    assert "5: pub fn json<T>(val: &T) -> Json" in shown, hit.snippet
    assert '11: tracing::error!("reply::json error: {}", err);' in shown, hit.snippet  # kept


def test_a_snippet_already_naming_it_is_unchanged(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "warp::reply::json")  # no line writes it whole: the head
    assert hit.snippet is not None, hit
    assert "5: pub fn json<T>(val: &T) -> Json" in hit.snippet.split("\n"), hit.snippet
