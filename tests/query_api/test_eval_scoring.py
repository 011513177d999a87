"""The localisation metrics: hand-computed cases, edge cases and the macro aggregation."""

from __future__ import annotations

import math

import pytest

from query_api.evaluation.scoring import (
    CaseScore,
    ndcg_at,
    recall_at,
    reciprocal_rank,
    score_case,
    summarise,
    summarise_by,
)

RANKED = ["a.py", "t/test_a.py", "b.py", "c.py", "d.py", "e.py"]


def test_recall_is_the_fraction_of_gold_in_the_top_k() -> None:
    gold = {"b.py", "e.py", "z.py"}
    assert recall_at(RANKED, gold, 1) == 0.0
    assert recall_at(RANKED, gold, 5) == pytest.approx(1 / 3)
    assert recall_at(RANKED, gold, 10) == pytest.approx(2 / 3)


def test_reciprocal_rank_counts_the_first_gold_within_the_cutoff() -> None:
    assert reciprocal_rank(RANKED, {"b.py", "c.py"}) == pytest.approx(1 / 3)
    assert reciprocal_rank(RANKED, {"a.py"}) == 1.0
    assert reciprocal_rank([f"{i}.py" for i in range(20)], {"12.py"}) == 0.0  # rank 13 > 10
    assert reciprocal_rank([], {"a.py"}) == 0.0


def test_ndcg_uses_binary_gains_against_the_ideal_order() -> None:
    assert ndcg_at(["a.py", "b.py"], {"a.py", "b.py"}) == pytest.approx(1.0)
    expected = (1 / math.log2(3)) / (1 + 1 / math.log2(3))  # gold at rank 2 of an ideal of 2
    assert ndcg_at(["x.py", "a.py"], {"a.py", "b.py"}) == pytest.approx(expected)
    assert ndcg_at(["x.py"], {"a.py"}) == 0.0


def test_a_path_listed_twice_counts_once_at_its_first_rank() -> None:
    ranked = ["a.py", "a.py", "b.py"]
    assert recall_at(ranked, {"b.py"}, 2) == 1.0
    assert reciprocal_rank(ranked, {"b.py"}) == 0.5


def test_a_case_without_gold_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="gold"):
        score_case(["a.py"], set())


def test_summaries_are_macro_means_over_cases() -> None:
    perfect = score_case(["a.py"], {"a.py"})
    miss = score_case(["x.py"], {"a.py", "b.py"})
    assert perfect == CaseScore(1.0, 1.0, 1.0, 1.0, 1.0)
    summary = summarise([perfect, miss])
    assert summary.cases == 2
    assert summary.recall_at_10 == 0.5
    assert summary.mrr_at_10 == 0.5
    assert summarise([]).cases == 0


def test_summaries_by_key_keep_first_seen_order() -> None:
    hit, miss = score_case(["a"], {"a"}), score_case(["x"], {"a"})
    by = summarise_by([("zod", hit), ("click", miss), ("zod", miss)])
    assert list(by) == ["zod", "click"]
    assert by["zod"].cases == 2 and by["zod"].recall_at_1 == 0.5
    assert by["click"].recall_at_1 == 0.0
