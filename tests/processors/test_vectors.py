"""Passage derivation (spec §2.5 windows)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from processors.vectors import (
    CONTENTLESS_IDX,
    MAX_WINDOWS,
    OVERLAP,
    WINDOW,
    contentless_marker,
    file_passages,
    symbol_passage,
    windows,
)


def test_window_geometry() -> None:
    step = WINDOW - OVERLAP
    body = "".join(chr(ord("a") + (i % 26)) for i in range(3 * step + OVERLAP + 50))
    w = windows(body)
    assert [i for i, _ in w] == [0, 1, 2, 3]
    assert w[1][1].startswith(body[WINDOW - OVERLAP : WINDOW - OVERLAP + 10])
    assert all(len(t) <= WINDOW for _, t in w)


def test_caps_and_blank_windows() -> None:
    assert len(windows("x" * 200_000)) == MAX_WINDOWS
    assert windows("") == [] and windows("   \n ") == []
    step = WINDOW - OVERLAP
    body = "a" * WINDOW + " " * (2 * step) + "b" * 10
    assert [i for i, _ in windows(body)] == [0, 1, 3]  # blank windows skipped, indices stable


def test_file_and_symbol_passages() -> None:
    ps = file_passages("r", "src/a.py", "def f():\n    pass\n")
    assert len(ps) == 1 and ps[0].text.startswith("src/a.py\n")
    assert ps[0].source_key == "repo/r/file/src/a.py"
    s = symbol_passage("r", "src/a.py", "a.f", "Function", "def f()")
    assert s.kind == "symbol" and s.fq == "a.f" and "def f()" in s.text
    assert s.text_hash("x") != s.text_hash("y")  # the space is part of the content address
    assert file_passages("r", "e.py", "") == file_passages("r", "e.py", " \n\t ") == []
    marker = contentless_marker("r", "e.py")
    assert marker.kind == "contentless" and marker.source_key == "repo/r/file/e.py"
    assert marker.idx == CONTENTLESS_IDX and marker.idx not in range(MAX_WINDOWS)


@given(st.text(max_size=6000))
def test_windows_cover_prefix_deterministically(body: str) -> None:
    assert windows(body) == windows(body)
    for i, chunk in windows(body):
        assert chunk == body[i * (WINDOW - OVERLAP) : i * (WINDOW - OVERLAP) + WINDOW]
