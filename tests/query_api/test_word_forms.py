"""A plural in `-ies` is the singular in `-y` (entries, policies) or in `-ie` (cookies,
movies): QA on tinyhttp/tinyhttp, `tests for cookies` read its subject as `cooky`, so
tests/modules/cookie.test.ts, named for it, was not placed first, and the hit lines of a file
writing `cookie` matched no form of the query's word."""

from __future__ import annotations

from query_api.retrieval.tests_first import subject_named_tests
from query_api.retrieval.word_forms import forms, needle


def test_an_ies_plural_has_both_singulars() -> None:
    assert {"cookie", "cooky"} <= forms("cookies")
    assert "entry" in forms("entries") and "policy" in forms("policies")
    assert "movie" in forms("movies")
    for word in ("cookies", "entries", "movies"):
        assert all(needle(word) in form for form in {word, *forms(word)}), word


def test_a_test_file_named_for_the_singular_of_an_ies_plural_is_named_by_it() -> None:
    paths = ["packages/res/src/cookie.ts", "tests/modules/cookie.test.ts", "tests/etag.test.ts"]
    assert subject_named_tests(paths, "tests for cookies") == ["tests/modules/cookie.test.ts"]
    assert subject_named_tests(["tests/test_entry.py"], "tests for entries") == [
        "tests/test_entry.py"
    ]


def test_a_participle_has_its_stems_for_forms() -> None:
    # QA on middyjs/middy: `where is the cache cleared` pointed packages/util/index.js at
    # `const sanitizeKeyCache = new Map()`, not at `export const clearCache = ...`
    assert "clear" in forms("cleared") and "fetch" in forms("fetched")
    assert {"cache", "stop", "copy", "log"} <= forms("caching") | forms("stopped") | forms(
        "copied"
    ) | forms("logging")
    assert "miss" in forms("missing") and "mis" not in forms("missing")
    # a noun ending alike keeps its plurals and gains no short stem
    assert "strings" in forms("string") and "str" not in forms("string")
    assert not {"us", "use"} & forms("used")
    for word in ("cleared", "caching", "stopped", "copied", "based"):
        assert all(needle(word) in form for form in {word, *forms(word)}), word
