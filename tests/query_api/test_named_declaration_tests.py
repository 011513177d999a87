"""A query about the tests of a declaration it names by a qualified name (`tests for
reply::json`) points a Rust file's hit at the unit test in its `#[cfg(test)]` module calling
it, not at the declaration. QA on seanmonstar/warp: it pointed src/reply.rs at `pub fn json`
(98-107), not at `fn json_serde_error`, whose `json(&map).into_response()` is in `mod tests`."""

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
        "pub fn json<T>(val: &T) -> Json {",  # 1
        '    tracing::error!("reply::json error");',  # 2
        "    Json {}",  # 3
        "}",  # 4
        "",
        "pub struct Json {}",  # 6
        "",
        "#[cfg(test)]",  # 8
        "mod tests {",  # 9
        "    use super::*;",  # 10
        "",
        "    #[test]",  # 12
        "    fn html_reply() {",  # 13
        "        assert!(true);",  # 14
        "    }",  # 15
        "",
        "    #[test]",  # 17
        "    fn serde_error() {",  # 18
        "        let res = json(&1);",  # 19
        "        assert!(res.is_ok());",  # 20
        "    }",  # 21
        "}",  # 22
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


def test_tests_for_a_qualified_name_point_at_the_unit_test_calling_it(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "tests for reply::json")
    assert hit.startLine is not None and 17 <= hit.startLine <= 18, hit
    assert hit.endLine == 21, hit
    assert hit.snippet is not None and "19: let res = json(&1);" in hit.snippet, hit.snippet


def test_the_qualified_name_alone_is_still_its_declaration(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "reply::json")
    assert (hit.startLine, hit.endLine) == (1, 4), hit
