"""A pasted error whose own words come first and another library's after a colon (Go's
`fmt.Errorf("cannot decode event: %s", err)`) is found by its first segment: the wrapped cause
is text no file of the repository holds."""

from __future__ import annotations

from query_api.retrieval.pasted_message import files_writing_message, message_queries

QUERY = "panic: cannot decode event: invalid character 'x' looking for beginning of value"


def test_the_first_segment_of_a_wrapped_error_is_asked_as_a_phrase() -> None:
    """QA on rs/zerolog: console.go, which writes `cannot decode event: %s`, came third below
    internal/json/string.go and a cbor decoder: only the whole message and the cause's
    `looking for beginning of value` (encoding/json's words) were asked for."""
    assert 'body_terms : "cannot decode event"' in message_queries(QUERY)


def test_it_names_the_file_writing_it() -> None:
    texts = {"console.go": 'fmt.Errorf("cannot decode event: %s", err)'}

    def paths_matching(match: str, limit: int) -> list[str]:
        phrase = match.partition(" : ")[2]
        return [p for p, text in texts.items() if phrase.strip('"') in text][:limit]

    assert files_writing_message(QUERY, paths_matching) == {"console.go"}


def test_a_first_segment_of_two_words_names_no_file() -> None:
    queries = message_queries("Error: read file: permission denied for user admin")
    assert 'body_terms : "read file"' not in queries, queries
