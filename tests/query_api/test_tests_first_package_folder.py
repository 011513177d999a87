"""A query about the tests of a package (`tests for dynblock`) places first the test files in
the folder named for it, when no test file is named for the query's words itself. QA on
hashicorp/hcl: `tests for dynblock` ranked ext/dynblock/expand_spec.go, which no test is
named for, above ext/dynblock/expand_body_test.go and variables_test.go."""

from __future__ import annotations

from query_api.retrieval.tests_first import subject_named_tests
from query_api.retrieval.tests_first import tests_first as with_tests_first
from schemas import tools as t

SPEC = "ext/dynblock/expand_spec.go"
BODY = "ext/dynblock/expand_body.go"
BODY_TEST = "ext/dynblock/expand_body_test.go"
VARIABLES_TEST = "ext/dynblock/variables_test.go"
OTHER_TEST = "hclsyntax/parser_test.go"


def hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=[])


def test_the_tests_of_the_folder_named_for_the_package_go_first() -> None:
    hits = [hit(SPEC, 1.0), hit(BODY_TEST, 0.98), hit(BODY, 0.98), hit(OTHER_TEST, 0.95)]
    hits.append(hit(VARIABLES_TEST, 0.9))
    tests = {BODY: [BODY_TEST]}
    out = with_tests_first(
        hits, 10, lambda p: tests.get(p, []), lambda p: None, hits, "tests for dynblock"
    )
    assert [h.entry.path for h in out[:2]] == [BODY_TEST, VARIABLES_TEST], out


def test_a_test_named_for_the_words_is_still_the_one_first() -> None:
    named = "ext/dynblock/dynblock_test.go"
    paths = [BODY_TEST, named, VARIABLES_TEST]
    assert subject_named_tests(paths, "tests for dynblock") == [named]


def test_a_folder_named_for_a_test_noun_or_a_stop_word_is_none() -> None:
    paths = ["tests/test_cli.py", "for/x_test.go"]
    assert subject_named_tests(paths, "where are the tests for the parser") == []
