"""A query asking where a trait is implemented (`where is the Reply trait implemented for
Result`) points a Rust file's hit at the `impl` block implementing it (for the type it names),
not at the trait's declaration (definition_sites, implementations.py); and a line's `impl`
counts for the words of implementing (word_forms). QA on seanmonstar/warp: the query pointed
src/reply.rs at line 236, `pub trait Reply: BoxedReply + Send {`, not at line 430,
`impl<T, E> Reply for Result<T, E>`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from query_api.retrieval.hit_details import HitLocator, enrich
from query_api.retrieval.implementations import implementation_line
from query_api.retrieval.word_forms import forms, needle
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "src/reply.rs"

BODY = "\n".join(
    [
        "pub trait Reply: BoxedReply + Send {",  # 1
        "    fn into_response(self) -> Response;",  # 2
        "}",  # 3
        "",
        "impl Reply for Json {",  # 5
        "    fn into_response(self) -> Response {",  # 6
        "        todo!()",  # 7
        "    }",  # 8
        "}",  # 9
        "",
        "impl<T, E> Reply for Result<T, E>",  # 11
        "where",  # 12
        "    T: Reply,",  # 13
        "    E: Reply,",  # 14
        "{",  # 15
        "    fn into_response(self) -> Response {",  # 16
        "        todo!()",  # 17
        "    }",  # 18
        "}",  # 19
        "",
    ]
)


BOXED = "\n".join(
    [
        "use super::{Reply, Response};",  # 1
        "",
        "/// A boxed reply, which implements Reply too.",  # 3
        "pub struct Boxed;",  # 4
        "",
        "impl Reply for Boxed {",  # 6
        "    fn into_response(self) -> Response {",  # 7
        "        todo!()",  # 8
        "    }",  # 9
        "}",  # 10
        "",
    ]
)


def _hit(tmp_path: Path, query: str, path: str = PATH) -> t.SearchHit:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, BODY), {})
        views.apply(records("src/boxed.rs", BOXED), {})
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["symbol:Reply"])
        locator = HitLocator(views)
        hits = enrich(locator, "r", query, [hit], details=True).hits
        [shown] = at_definitions(locator, "r", query, hits)
        return shown


def test_a_trait_implemented_for_a_type_points_at_its_impl_block(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "where is the Reply trait implemented for Result")
    assert hit.startLine is not None and hit.startLine <= 11, hit
    assert hit.endLine is not None and hit.endLine >= 11, hit
    assert hit.snippet is not None, hit
    assert hit.snippet.startswith("11: impl<T, E> Reply for Result<T, E>"), hit.snippet
    assert (hit.startLine, hit.endLine) == (11, 19), hit  # the impl block


def test_a_trait_implemented_points_at_its_first_impl_block(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "where is the Reply trait implemented")
    assert (hit.startLine, hit.endLine) == (5, 9), hit
    # a file implementing the trait another file declares: its impl, not its import
    hit = _hit(tmp_path, "where is the Reply trait implemented", "src/boxed.rs")
    assert (hit.startLine, hit.endLine) == (6, 10), hit
    assert hit.snippet is not None and hit.snippet.startswith("6: impl Reply for Boxed {"), hit


def test_where_a_trait_is_defined_is_still_its_declaration(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "where is the Reply trait defined")
    assert hit.startLine == 1 and hit.snippet is not None, hit
    assert hit.snippet.startswith("1: pub trait Reply"), hit.snippet


def test_every_form_of_implement_holds_the_needle() -> None:
    for word in ("implemented", "implements", "implementation", "implementations", "implement"):
        assert "impl" in forms(word), word
        assert all(needle(word) in form for form in {word, *forms(word)}), word
    assert "impl" not in forms("simple")  # only the words of implementing


def test_a_trait_bound_is_no_implementation() -> None:
    """warp's src/filters/reply.rs: `impl<R: Reply> Func<One<R>> for WithHeader_` bounds a
    parameter by Reply and implements Func; it was taken for an implementation of Reply."""
    lines = ["impl<R: Reply> Func<One<R>> for WithHeader_ {", "impl<T> Reply for Box<T> {"]
    assert implementation_line(lines, "Reply", "where is Reply implemented") == 2
    assert implementation_line(lines, "Func", "where is Func implemented") == 1
