"""`where is the Binder interface implemented`, `where is the Display trait implemented`: a
question for where an interface (trait, protocol) is implemented, its kind written, asks for
its implementers, as `what implements Binder` does. QA on google/guice: it matched no users
form and ranked Binder.java first and Elements.java (RecordingBinder implements Binder)
fourth. A method's `where is getInstance implemented` still asks for its definitions."""

from __future__ import annotations

import pytest

from query_api.retrieval.users_first import asks_implementers, used_name


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is the Binder interface implemented", "Binder"),
        ("where is the ElementVisitor interface implemented?", "ElementVisitor"),
        ("where is the Display trait implemented", "Display"),
        ("where is the Reporter protocol implemented", "Reporter"),
    ],
)
def test_an_interface_implemented_asks_for_its_implementers(query: str, name: str) -> None:
    assert used_name(query) == name
    assert asks_implementers(query)


@pytest.mark.parametrize(
    "query", ["where is getInstance implemented", "where is Modules.override implemented"]
)
def test_a_name_with_no_kind_implemented_asks_for_its_definitions(query: str) -> None:
    assert used_name(query) is None
    assert not asks_implementers(query)
