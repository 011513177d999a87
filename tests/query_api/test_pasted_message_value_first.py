"""A one-line message opening with a quoted value and ending a sentence (`'black' is an
unknown formatter.  Falling back to default.`) is a pasted message, as Python's logging
prints a warning with no handler configured: the message alone, no level or logger before it.
QA on PyCQA/flake8: that line asked for no file, and plugins/reporter.py, writing `"%r is an
unknown formatter.  Falling back to default."`, came second below formatting/default.py."""

from __future__ import annotations

import pytest

from query_api.retrieval.pasted_message import files_writing_message, message_queries

TEXTS = {
    "tool/plugins/reporter.py": '"%r is an unknown formatter.  Falling back to default.",',
    "tool/formatting/default.py": "# the default formatter, falling back to the format option",
}


def _paths_matching(match: str, limit: int) -> list[str]:
    body = match.partition(" : ")[2]
    phrases = [p for p in body.split('"') if p.strip() and not p.startswith(("NEAR", ","))]
    hits = [p for p, text in TEXTS.items() if all(x in text.lower() for x in phrases)]
    return hits[:limit]


@pytest.mark.parametrize(
    "query",
    [
        "'black' is an unknown formatter.  Falling back to default.",
        '"black" is an unknown formatter. Falling back to default.',
    ],
)
def test_a_message_opening_with_a_quoted_value_is_read(query: str) -> None:
    assert message_queries(query), query
    assert files_writing_message(query, _paths_matching) == {"tool/plugins/reporter.py"}


@pytest.mark.parametrize(
    "query",
    [
        "'make test' fails on windows",  # a request: no sentence's end
        "fix 'black' formatter fallback.",  # no value opens it
        "'black' is an unknown formatter.\nFalling back to default.",  # two lines
    ],
)
def test_other_text_is_no_such_message(query: str) -> None:
    assert message_queries(query) == []
