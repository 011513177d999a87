"""A question asking where a new test should go (`where should I add a regression test for a
new issue`, `where do I put a new test for the Map type`) is about tests: the tests first. QA
on serde-rs/json ranked sources first and tests/regression.rs nowhere in the first ten; a
request to add one (`add a regression test for issue 12`) is still a change."""

from __future__ import annotations

import pytest

from processors.path_roles import Role, roles_about


@pytest.mark.parametrize(
    "query",
    [
        "where should I add a regression test for a new issue",
        "where do I put a new test for the parser",
        "where can we write unit tests for the lexer",
        "where would I create a test for Map.shift_insert",
    ],
)
def test_where_a_test_should_go_is_a_question_about_tests(query: str) -> None:
    assert roles_about(query) == {Role.TEST}, query


@pytest.mark.parametrize(
    "query", ["add a regression test for issue 12", "Add tests for Map", "where should I add it"]
)
def test_a_request_to_add_one_is_not(query: str) -> None:
    assert Role.TEST not in roles_about(query), query
