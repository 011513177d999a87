"""The phrases of a pasted error message (processors/error_messages.py)."""

from __future__ import annotations

import pytest

from processors.error_messages import message_phrases


def test_the_message_after_the_error_name() -> None:
    assert message_phrases("Error: The schema does not contain the path") == [
        ("the", "schema", "does", "not", "contain", "the", "path"),
        ("schema", "does", "not", "contain", "the", "path"),
    ]


def test_a_subject_filled_in_unquoted() -> None:
    # `${path} must be a valid email`, its path `email`
    assert ("must", "be", "a", "valid", "email") in message_phrases(
        "ValidationError: email must be a valid email"
    )


def test_quoted_values_and_punctuation_split_the_phrases() -> None:
    query = (
        "ValidationError: this must be a `number` type, but the final value was: `NaN` "
        '(cast from the value `"abc"`).'
    )
    assert message_phrases(query) == [
        ("but", "the", "final", "value", "was"),
        ("this", "must", "be", "a"),
        ("the", "final", "value", "was"),
        ("cast", "from", "the", "value"),
        ("must", "be", "a"),
        ("from", "the", "value"),
    ]


def test_only_the_first_line_of_a_stack_trace() -> None:
    query = (
        "TypeError: Cannot read properties of undefined (reading 'resolve')\n"
        "    at Condition.resolve (src/Condition.ts:62:21)"
    )
    assert message_phrases(query) == [
        ("cannot", "read", "properties", "of", "undefined"),
        ("read", "properties", "of", "undefined"),
    ]


@pytest.mark.parametrize(
    "query",
    [
        "where is the error message for a missing path",
        "fix: make null validation errors consistent across schema",
        "Error: not found",  # no phrase a message owns
        "ValidationError",
    ],
)
def test_no_error_message(query: str) -> None:
    assert message_phrases(query) == []
