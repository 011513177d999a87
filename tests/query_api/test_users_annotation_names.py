"""`what uses @Named`, `who uses the @Provides annotation`, `which files use the @dataclass
decorator`: an annotation or decorator written with its `@` is the name whose users the query
asks for. QA on google/guice: `what uses @Named` matched no users form and ranked Named.java,
Names.java and NamedImpl.java first, none of the files annotating with it."""

from __future__ import annotations

import pytest

from query_api.retrieval.users_first import used_name


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("what uses @Named", "Named"),
        ("where is @Singleton used", "Singleton"),
        ("who uses the @Provides annotation", "Provides"),
        ("which files use the @dataclass decorator", "dataclass"),
        ("where is the @Inject annotation used", "Inject"),
    ],
)
def test_an_annotation_written_with_its_at_sign_is_a_users_query(query: str, name: str) -> None:
    assert used_name(query) == name


def test_an_at_sign_alone_names_nothing() -> None:
    assert used_name("what uses @") is None
