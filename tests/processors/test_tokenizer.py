"""The identifier-aware tokenizer (spec §3.4): examples from the reference plus properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from processors.tokenizer import (
    MAX_TOKEN_CHARS,
    name_spellings,
    named_identifiers,
    query_tokens,
    tokenize,
    without_authorship,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("utf8Writer", ["utf", "8", "writer"]),
        ("Order-Service", ["order", "service"]),
        ("getUserName", ["get", "user", "name"]),
        ("HTTPServer", ["http", "server"]),
        ("XMLHttpRequest", ["xml", "http", "request"]),
        ("getHTTP2Response", ["get", "http", "2", "response"]),
        ("ALL_CAPS_CONST", ["all", "caps", "const"]),
        ("snake_case_name", ["snake", "case", "name"]),
        ("v1.2.3-beta", ["v", "1", "2", "3", "beta"]),
        ("src/Foo/BarBaz.cs", ["src", "foo", "bar", "baz", "cs"]),
        ("a+b == c; // x", ["a", "b", "c", "x"]),
        ("", []),
        ("  ->  !!  ", []),
    ],
)
def test_reference_examples(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("größeWert", ["größe", "wert"]),
        ("ÄnderungZeit", ["änderung", "zeit"]),
        ("東京タワーfoo", ["東京タワー", "foo"]),
        ("ΑλφαΒήτα", ["αλφα", "βήτα"]),
        ("İstanbul", ["istanbul"]),  # lower-cases to i + combining dot; the mark is dropped
        ("naïve café", ["naïve", "café"]),
    ],
)
def test_unicode_letters_and_humps(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_duplicates_are_kept_in_order_for_term_frequency() -> None:
    assert tokenize("user userName USER") == ["user", "user", "name", "user"]


def test_overlong_tokens_are_dropped_not_split() -> None:
    kept, dropped = "a" * MAX_TOKEN_CHARS, "b" * (MAX_TOKEN_CHARS + 1)
    assert tokenize(f"{kept} {dropped} ok") == [kept, "ok"]


def test_long_capital_runs_are_linear_and_whole() -> None:
    assert tokenize("A" * 50) == ["a" * 50]
    # The capital run (too long: dropped) ends before the capital that starts the last hump.
    assert tokenize("AB" * 10_000 + "c") == ["bc"]


def test_query_tokens_deduplicate_in_first_seen_order() -> None:
    assert query_tokens("user getUserName USER name id") == ["user", "get", "name", "id"]
    assert query_tokens("") == []


def test_no_cased_letters_exist_beyond_the_planes_the_classes_cover() -> None:
    # The upper/lower classes are built from U+0000..U+1FFFF only; this keeps that honest.
    beyond = (chr(c) for c in range(0x20000, 0x110000))
    assert not any(ch.isupper() or ch.islower() for ch in beyond)


@given(st.text(max_size=300))
def test_tokens_are_lowercase_alphanumeric_bounded_and_deterministic(text: str) -> None:
    tokens = tokenize(text)
    assert tokens == tokenize(text)
    for token in tokens:
        assert token.isalnum()
        assert token == token.lower()
        assert 0 < len(token) <= MAX_TOKEN_CHARS
        assert " " not in token


@given(st.text(max_size=300))
def test_query_tokens_are_the_unique_document_tokens(text: str) -> None:
    tokens = query_tokens(text)
    assert len(tokens) == len(set(tokens))
    assert tokens == list(dict.fromkeys(tokenize(text)))


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=300))
def test_ascii_and_unicode_patterns_agree_on_ascii_text(text: str) -> None:
    # A trailing non-ASCII separator sends the same text down the Unicode pattern.
    assert tokenize(text) == tokenize(text + " \u2192")


def test_a_name_like_query_is_spelled_the_ways_code_writes_names() -> None:
    assert name_spellings("order service") == [
        "OrderService",
        "orderService",
        "order_service",
        "ORDER_SERVICE",
    ]
    # the query itself first when it is an identifier (`HTTPServer` tokenizes as one word)
    assert name_spellings(" HTTPServer ")[0] == "HTTPServer"
    assert name_spellings("save") == ["save", "Save", "SAVE"]
    # a question is not a name
    assert name_spellings("where is the order service used") == []
    assert name_spellings("  ") == []


def test_a_query_names_the_identifiers_written_in_it() -> None:
    assert named_identifiers("QueryClient")[0] == "QueryClient"
    assert "QueryClient" in named_identifiers("class QueryClient")  # declaration word dropped
    assert "login" in named_identifiers("def login")
    # a compound identifier inside a question; its plain words name nothing
    assert named_identifiers("how does invalidateQueries refetch active queries") == [
        "invalidateQueries"
    ]
    assert named_identifiers("where is the order service used") == []


def test_a_pasted_commit_message_loses_its_trailers_and_addresses() -> None:
    asked = "fix: x (#1) Co-authored-by: Ann Lee <ann@x.org> Signed-off-by: Bo <b@y.io> ping c@d.io"
    assert without_authorship(asked).split() == ["fix:", "x", "(#1)", "ping"]
    assert without_authorship("use @decorator and a@b") == "use @decorator and a@b"
