"""Which declaration owns a reference: the segment table of extract._owners against a brute
force, on random nestings (tree-sitter's declarations nest or are disjoint) and on arbitrary
overlaps (whatever the patterns capture, the table stays sorted and bisect stays valid)."""

from __future__ import annotations

from bisect import bisect_right
from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st
from tree_sitter import Node

from processors.symbols.declaration import Declaration as _Def
from processors.symbols.references import _owners

Span = tuple[int, int]


def _defs(spans: list[Span]) -> list[_Def]:
    """Declarations as extract hands them to _owners: by start, the outer one first."""
    defs = [
        _Def(s, e, "Function", f"d{i}", cast(Node, None), fq=f"d{i}")
        for i, (s, e) in enumerate(spans)
    ]
    return sorted(defs, key=lambda d: (d.start, -d.end))


def _nested(spans: list[Span]) -> list[Span]:
    """Keep the spans that nest in or stay clear of every span kept before them."""
    kept: list[Span] = []
    for s, e in spans:
        if all(e <= a or b <= s or (a <= s and e <= b) or (s <= a and b <= e) for a, b in kept):
            kept.append((s, e))
    return list(dict.fromkeys(kept))


def _innermost(defs: list[_Def], at: int) -> str:
    around = [d for d in defs if d.start <= at < d.end]
    if not around:
        return ""
    return max(around, key=lambda d: (d.start, -d.end, d.fq)).fq


spans = st.lists(
    st.tuples(st.integers(0, 200), st.integers(1, 60)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(spans, st.lists(st.integers(0, 280), max_size=40))
def test_nested_declarations_own_what_they_enclose(raw: list[Span], refs: list[int]) -> None:
    defs = _defs(_nested(raw))
    bounds, owners = _owners(defs)
    for at in refs:
        assert owners[bisect_right(bounds, at) - 1] == _innermost(defs, at)


@settings(max_examples=300, deadline=None)
@given(spans)
def test_overlapping_declarations_keep_the_table_sorted(raw: list[Span]) -> None:
    bounds, owners = _owners(_defs(raw))
    assert bounds == sorted(bounds)
    assert len(bounds) == len(owners)
    assert owners[-1] == ""  # after the last declaration ends, the file owns what follows


DECORATED_PY = """import pytest
from starlette.authentication import requires
from .structures import CaseInsensitiveDict


class TestDict:
    @pytest.mark.parametrize("value", [CaseInsensitiveDict()])
    def test_init(self, value):
        pass


@requires("admin")
async def dashboard(request):
    pass
"""

DECORATED_TS = """import { Component, Input } from "./core";

export class Panel {
  @Input() title: string;
}

@Component({ selector: "app" })
export class App {}
"""


def test_a_decorator_is_the_reference_of_the_declaration_it_decorates() -> None:
    """Outline's lines of a decorated declaration start with its decorators; the references
    written in them are that declaration's too, not the class's or the file's around it
    (starlette's `@requires("authenticated")` endpoints were the file's `<file>` only)."""
    from tests.processors.test_symbols_qa_graph import references

    found = references("tests/test_x.py", DECORATED_PY)
    test_init = "tests.test_x.TestDict.test_init"
    assert (test_init, "CaseInsensitiveDict", "tests.structures.CaseInsensitiveDict") in found
    assert (test_init, "parametrize", "pytest.mark.parametrize") in found, found
    assert ("tests.test_x.dashboard", "requires", "starlette.authentication.requires") in found
    assert not any(o in ("", "tests.test_x.TestDict") for o, _n, _q in found), found

    found = references("src/app.ts", DECORATED_TS)
    assert ("Panel.title", "Input", "src/core.Input") in found, found
    assert ("App", "Component", "src/core.Component") in found, found
