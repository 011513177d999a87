"""The compound names a request writes out, which keyword search looks for as phrases."""

from __future__ import annotations

from processors.query_mentions import MAX_MENTIONS, phrase_query, written_names


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
