"""A question asking which examples show, use or demonstrate something is about examples
(path_roles.roles_about: EXAMPLE), as `example of X` is. QA on tokio-rs/tracing: `which
examples show per-layer filtering` was read as a request about per-layer filtering and placed
examples/examples/per-layer-filter.rs, whose first line says it demonstrates per-layer
filtering, in none of the first ten; `example of per-layer filtering` put it first."""

from __future__ import annotations

from processors.path_roles import Role, roles_about, without_example_words


def test_which_examples_show_x_is_about_examples() -> None:
    for query in (
        "which examples show per-layer filtering",
        "what examples use the json formatter",
        "which example demonstrates the rolling appender?",
        "Which samples cover validation groups",
    ):
        assert Role.EXAMPLE in roles_about(query), query
    assert without_example_words("which examples show per-layer filtering") == (
        "per-layer filtering"
    )


def test_requests_naming_examples_are_not() -> None:
    for query in (
        "fix the examples showing per-layer filtering",
        "examples: add per-layer filtering example",
        "which tests show the bug",
    ):
        assert Role.EXAMPLE not in roles_about(query), query
