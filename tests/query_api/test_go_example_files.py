"""A query asking for an example (`example of using hlog`) puts Go's example files first:
`example_test.go` and `*_example_test.go` hold the `func ExampleX()` godoc shows, and are
tests by their name. QA on rs/zerolog: `example of using hlog` left
hlog/hlog_example_test.go out of the first ten, hlog/hlog.go first."""

from __future__ import annotations

from processors.path_roles import without_example_words
from query_api.retrieval.docs_first import asked_pages_first, holds_subject
from query_api.retrieval.hit_details import QueryTerms
from schemas import tools as t


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


TEXTS = {
    "hlog/hlog.go": "package hlog\n\nfunc NewHandler() {}\n",
    "hlog/hlog_test.go": "package hlog\n\nfunc TestNewHandler(t *testing.T) {}\n",
    "hlog/hlog_example_test.go": "package hlog_test\n\nfunc Example_handler() { NewHandler() }\n",
    "example_test.go": "package zerolog_test\n\nfunc ExampleNew() {}\n",
}


def _holds(path: str, terms: QueryTerms) -> bool:
    return holds_subject(TEXTS[path], terms)


def test_a_go_example_file_is_an_example() -> None:
    hits = [
        _hit("hlog/hlog.go", 1.0),
        _hit("hlog/hlog_test.go", 0.5),
        _hit("hlog/hlog_example_test.go", 0.4),
    ]
    paths = [hit.entry.path for hit in asked_pages_first("example of using hlog", hits, _holds)]
    assert paths[0] == "hlog/hlog_example_test.go", paths
    assert paths.index("hlog/hlog_test.go") > paths.index("hlog/hlog.go")


def test_a_request_keeps_its_order() -> None:
    hits = [_hit("hlog/hlog.go", 1.0), _hit("hlog/hlog_example_test.go", 0.4)]
    assert asked_pages_first("fix the hlog example", hits, _holds) == hits


def test_using_is_a_word_of_the_asking() -> None:
    # a file holding `using` (log/log_example_test.go) was lifted above hlog's example
    assert without_example_words("example of using hlog") == "hlog"
    assert without_example_words("show me an example using Live") == "Live"
