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
