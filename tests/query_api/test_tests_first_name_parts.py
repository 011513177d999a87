"""A test file named for one part of a name the query writes (`context_test.go` for
`UpdateContext`) is no test of the query's subject. QA on rs/zerolog: `tests for
Logger.UpdateContext` ranked context_test.go first, pointed at TestContext_ErrWithStackMarshaler,
above log_test.go and its TestUpdateContextOnNopLogger: the test named for the query's words
alone took `context`, a part of the name, for a word of the query."""

from __future__ import annotations

from query_api.retrieval.tests_first import subject_named_tests


def test_a_part_of_a_written_name_names_no_test() -> None:
    paths = ["context_test.go", "log_test.go"]
    assert subject_named_tests(paths, "tests for Logger.UpdateContext") == []
    assert subject_named_tests(paths, "tests for UpdateContext") == []


def test_a_whole_written_name_or_words_still_do() -> None:
    assert subject_named_tests(["update_context_test.go"], "tests for UpdateContext") == [
        "update_context_test.go"
    ]
    assert subject_named_tests(["context_test.go"], "tests for the logger context") == [
        "context_test.go"
    ]
