"""`Value enum definition`, a name, its kind and the word `definition`, asks for its
definition as `definition of the Value enum` does. QA on serde-rs/json: no definition form
matched it, and src/value/de.rs (`deserialize_enum`) ranked above src/value/mod.rs, declaring
`pub enum Value`."""

from __future__ import annotations

import pytest

from query_api.retrieval.definition_sites import asked_kinds, defined_name


@pytest.mark.parametrize(
    ("query", "name", "kinds"),
    [
        ("Value enum definition", "Value", {"Enum", "Type"}),
        ("Deserializer struct definition", "Deserializer", {"Type"}),
        ("the Formatter trait declaration", "Formatter", {"Interface", "Type"}),
    ],
)
def test_a_name_and_kind_then_definition(query: str, name: str, kinds: set[str]) -> None:
    assert defined_name(query) == name
    assert asked_kinds(query) == kinds


@pytest.mark.parametrize(
    "query", ["parse function definition", "Fix Value enum definition", "Value definition"]
)
def test_a_word_or_a_request_is_no_such_query(query: str) -> None:
    assert defined_name(query) is None, query
