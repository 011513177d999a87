"""`what subclasses X`, `which classes inherit from X` and `what derives from X` ask for the
types extending X, as `what extends X` does. QA on benoitc/gunicorn: `which classes inherit
from Worker` and `what subclasses base.Worker` matched no users form, and ranked config.py
(`worker_class`) and dirty/errors.py first, none of the five workers extending it."""

from __future__ import annotations

import pytest

from query_api.retrieval.users_first import asks_implementers, used_name


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("which classes inherit from Worker", "Worker"),
        ("what subclasses base.Worker", "base.Worker"),
        ("what inherits from Setting?", "Setting"),
        ("which types derive from BaseError", "BaseError"),
        ("which classes subclass Setting", "Setting"),
    ],
)
def test_an_inheritance_question_asks_for_the_extending_types(query: str, name: str) -> None:
    assert used_name(query) == name
    assert asks_implementers(query)


def test_a_request_is_no_such_question() -> None:
    assert used_name("make SyncWorker inherit from base.Worker") is None
    assert not asks_implementers("what calls Worker")
