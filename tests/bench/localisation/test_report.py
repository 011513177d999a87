"""The report's R@10 by language: each system beside the plain RRF baseline, the figure
issue 20's per-language bar reads (computed by hand from the JSON before)."""

from __future__ import annotations

import json
from pathlib import Path

from query_api.evaluation.scoring import score_case
from tests.bench.localisation.report import load_languages, load_results, render
from tests.bench.localisation.runner import CaseResult, by_language


def _case(repo: str, system: str, ranked: tuple[str, ...]) -> CaseResult:
    gold = ("src/a.rs",)
    score = score_case(list(ranked), gold)
    return CaseResult(repo, "reporting", system, "c0ffee", "fix a", gold, ranked, score, 1.0)


def test_each_language_s_recall_is_shown_beside_rrf_s() -> None:
    results = [
        _case("o/bat", "default", ("src/a.rs",)),
        _case("o/bat", "rrf", ("src/b.rs",)),
        _case("o/tool", "default", ("src/a.rs",)),
        _case("o/tool", "rrf", ("src/a.rs",)),
    ]
    table = by_language(results, {"o/bat": "rust", "o/tool": "rust"})
    assert "| rust (reporting) | 1.000 (+0.500) | 0.500 |" in table, table


def test_the_report_reads_languages_from_the_saved_results(tmp_path: Path) -> None:
    row = _case("o/bat", "default", ("src/a.rs",))
    saved = {
        "repos": [{"name": "o/bat", "language": "rust"}],
        "cases": [
            {
                "repo": row.repo, "split": row.split, "system": row.system,
                "commit": row.commit, "query": row.query, "gold": list(row.gold),
                "ranked": list(row.ranked), "score": row.score.__dict__,
                "latency_ms": row.latency_ms,
            }
        ],
    }  # fmt: skip
    path = tmp_path / "run.json"
    path.write_text(json.dumps(saved))
    assert load_languages([path]) == {"o/bat": "rust"}
    assert "| rust (reporting) | 1.000 |" in render(load_results([path]), load_languages([path]))
