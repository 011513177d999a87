"""A query about tests places first the test file whose name holds the most of the query's
words in a row, though its name adds words of its own (test_asgi_proxy_protocol.py for `tests
for the PROXY protocol`). QA on benoitc/gunicorn: tests/ctl/test_protocol.py, named for
`protocol` alone, came first and tests/test_asgi_proxy_protocol.py in none of the first
eight."""

from __future__ import annotations

from query_api.retrieval.tests_first import subject_named_tests

PROXY = "tests/test_asgi_proxy_protocol.py"
CONTROL = "tests/ctl/test_protocol.py"
SOURCE = "app/asgi/protocol.py"


def test_a_name_holding_more_of_the_query_s_words_wins() -> None:
    paths = [CONTROL, SOURCE, PROXY]
    assert subject_named_tests(paths, "tests for the PROXY protocol") == [PROXY]
    assert subject_named_tests(paths, "where are the proxy protocol tests?") == [PROXY]


def test_one_word_of_a_longer_name_is_not_enough() -> None:
    paths = [CONTROL, SOURCE, PROXY, "tests/test_asgi_worker.py"]
    assert subject_named_tests(paths, "tests for the protocol") == [CONTROL]
    assert subject_named_tests(paths, "tests for the asgi parser") == []
