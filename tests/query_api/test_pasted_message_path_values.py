"""A path pasted unquoted inside an error message is a value formatted in, which no source
literal holds: the message's segments break there (query_api/retrieval/pasted_message)."""

from __future__ import annotations

from query_api.retrieval.pasted_message import message_queries, message_segments


def test_an_unquoted_path_breaks_the_message_where_the_source_formats_it_in() -> None:
    """QA on apache/commons-io: `java.io.IOException: Can't write file, lock /tmp/a.lck
    exists` (LockableFileWriter writes `"Can't write file, lock " + path + " exists"`) asked
    only for the phrase `can t write file lock tmp a lck exists`, which no file holds."""
    queries = message_queries("java.io.IOException: Can't write file, lock /tmp/a.lck exists")
    assert 'body_terms : "can t write file lock"' in queries, queries
    assert not any("tmp" in q for q in queries), queries


def test_a_windows_or_relative_path_breaks_it_too() -> None:
    for path in ("C:\\data\\a.lck", "./build/a.lck", "../a.lck", "~/a.lck"):
        segments = message_segments(f"IOException: Cannot open the lock file {path} for writing")
        assert [words for words, _ in segments] == [
            ("cannot", "open", "the", "lock", "file"),
            ("for", "writing"),
        ], (path, segments)


def test_a_slash_between_words_is_no_path() -> None:
    segments = message_segments("IOException: the stream is not readable and/or writable")
    assert [words for words, _ in segments] == [
        ("the", "stream", "is", "not", "readable", "and", "or", "writable")
    ], segments
