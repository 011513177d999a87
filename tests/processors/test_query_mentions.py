"""The compound names a request writes out, which keyword search looks for as phrases."""

from __future__ import annotations

from processors.query_mentions import (
    MAX_MENTIONS,
    mentioned_names,
    phrase_query,
    quoted_words,
    written_names,
)


def test_compound_names_in_every_spelling_are_found_in_order() -> None:
    query = "bleat when RIPGREP_CONFIG_PATH is unset; call invalidateQueries from session_interface"
    assert written_names(query) == [
        ("ripgrep", "config", "path"),
        ("invalidate", "queries"),
        ("session", "interface"),
    ]


def test_plain_words_and_repeats_are_no_names() -> None:
    assert written_names("Config the cache; don't re-export it") == []
    assert written_names("fooBar and foo_bar") == [("foo", "bar")]


def test_a_pasted_paragraph_yields_a_bounded_number_of_names() -> None:
    query = " ".join(f"name_{chr(97 + i)}x" for i in range(10))
    assert len(written_names(query)) == MAX_MENTIONS


def test_the_phrase_quotes_its_words_for_fts5() -> None:
    assert phrase_query(("ripgrep", "config"), "body_terms") == 'body_terms : "ripgrep config"'


def test_words_quoted_as_code_are_names_too() -> None:
    query = "fall through when `fallthrough` is set; add `proto` for `*.proto` files, not `id`"
    assert quoted_words(query) == [("fallthrough",), ("proto",)]  # once each; `id` too short
    assert quoted_words("use `the` or `content-type`, unquoted fallthrough") == []
    assert mentioned_names("call `invalidateQueries` with `stale`") == [
        ("invalidate", "queries"),
        ("stale",),
    ]
    many = " ".join(f"`word{chr(97 + i)}x`" for i in range(10))
    assert len(quoted_words(many)) == MAX_MENTIONS
