"""render._is_empty decides which optional fields an answer leaves out: only None and an
empty str, list or dict, never a zero, a False or a value of another type that compares
equal to an empty one."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from query_api.answers.render import _is_empty


class Text(str):
    pass


EMPTY: tuple[Any, ...] = (None, "", [], {})


def by_definition(value: Any) -> bool:
    return any(value is e or (type(value) is type(e) and value == e) for e in EMPTY)


def test_is_empty_keeps_zeros_falses_and_other_types() -> None:
    values: list[Any] = [None, "", [], {}, 0, 0.0, False, (), "x", [0], {"a": None}, Text("")]
    values += [OrderedDict(), b"", set(), True, " "]
    assert [_is_empty(v) for v in values] == [by_definition(v) for v in values]
    assert [v for v in values if _is_empty(v)] == [None, "", [], {}]
