"""The hit-lines benchmark's scorer: a hit's range and snippet against a case's gold lines."""

from __future__ import annotations

from schemas import tools as t
from tests.bench.hit_lines import gap_to, score_hit


def _hit(start: int | None, end: int | None, snippet: str = "") -> t.SearchHit:
    entry = t.EntryView(key="repo/r/file/a.py", exists=True, kind="File", path="a.py")
    return t.SearchHit(score=1.0, entry=entry, reasons=[], startLine=start, endLine=end,
                       snippet=snippet)  # fmt: skip


def test_a_range_holding_a_gold_line_scores_and_its_snippet_is_read_by_line_number() -> None:
    assert score_hit(_hit(10, 20, "12: x = 1\n15: y = 2"), {15, 40}) == (True, True, 11)
    assert score_hit(_hit(10, 20, "12: x = 1"), {15}) == (True, False, 11)
    assert score_hit(_hit(10, 20, "12: x = 1"), {9, 21}) == (False, False, 11)


def test_a_hit_naming_no_lines_holds_none() -> None:
    assert score_hit(_hit(None, None), {1}) == (False, False, 0)


def test_the_gap_is_the_lines_from_the_range_to_the_nearest_gold_line() -> None:
    assert gap_to(10, 20, {15}) == 0
    assert gap_to(10, 20, {4, 26}) == 6
    assert gap_to(10, 20, {30, 7}) == 3
    assert gap_to(None, None, {1}) is None
