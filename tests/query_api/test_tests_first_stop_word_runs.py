"""A test file whose name holds only the query's stop words in a row (`for_the` of
`filters_are_not_reevaluated_for_the_same_span.rs`) is no test named for the query's subject.
QA on tokio-rs/tracing: `tests for the instrument macro` ranked that test first, its two words
`for the` outweighing the one subject word of tests/instrument.rs, which came fifth."""

from __future__ import annotations

from query_api.retrieval.tests_first import subject_named_tests

PATHS = [
    "tracing/tests/filters_are_not_reevaluated_for_the_same_span.rs",
    "tracing/tests/instrument.rs",
    "tracing-attributes/tests/instrument.rs",
]


def test_a_run_of_stop_words_names_no_test() -> None:
    assert subject_named_tests(PATHS, "tests for the instrument macro") == PATHS[1:]
    assert subject_named_tests(PATHS[:1], "where are the tests for the span") == []


def test_a_run_holding_a_subject_word_still_does() -> None:
    paths = ["tests/test_asgi_proxy_protocol.py", "tests/test_protocol.py"]
    assert subject_named_tests(paths, "tests for the proxy protocol") == paths[:1]
    assert subject_named_tests(PATHS[:1], "tests for the same span") == PATHS[:1]
