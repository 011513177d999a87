"""Tables from saved results: `python -m tests.bench.localisation report A.json [B.json ...]`.

Recomputed from the per-case rows, so results of separate runs (a baseline measured once, a
system re-run after a ranking change) can be read side by side; a later file's row for the
same system, repository and commit replaces an earlier one.
"""

from __future__ import annotations

import json
from pathlib import Path

from query_api.evaluation.scoring import CaseScore
from tests.bench.localisation.runner import (
    CaseResult,
    by_language,
    latencies,
    latency_table,
    summaries,
    table,
)


def load_languages(paths: list[Path]) -> dict[str, str]:
    """Each repository's language, as the results' `repos` list gives it."""
    found: dict[str, str] = {}
    for path in paths:
        try:
            document = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"results: cannot read {path}: {exc}") from exc
        found.update({r["name"]: r["language"] for r in document.get("repos", [])})
    return found


def load_results(paths: list[Path]) -> list[CaseResult]:
    rows: dict[tuple[str, str, str], CaseResult] = {}
    for path in paths:
        try:
            document = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"results: cannot read {path}: {exc}") from exc
        for row in document.get("cases", []):
            result = CaseResult(
                row["repo"], row["split"], row["system"], row["commit"], row["query"],
                tuple(row["gold"]), tuple(row["ranked"]), CaseScore(**row["score"]),
                row["latency_ms"],
            )  # fmt: skip
            rows[(result.system, result.repo, result.commit)] = result
    return list(rows.values())


def matrix(results: list[CaseResult]) -> str:
    """One row per repository, `R@10 / MRR@10` per system: the table docs/benchmarks.md shows."""
    by_repo = summaries(results, lambda r: f"{r.repo} ({r.split})")
    systems = list(dict.fromkeys(r.system for r in results))
    lines = ["\nR@10 / MRR@10 by repository", "| repository | " + " | ".join(systems) + " |",
             "|---|" + "---|" * len(systems)]  # fmt: skip
    for repo, rows in by_repo.items():
        cells = [
            f"{rows[s].recall_at_10:.3f} / {rows[s].mrr_at_10:.3f}" if s in rows else "-"
            for s in systems
        ]
        lines.append(f"| {repo} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render(results: list[CaseResult], languages: dict[str, str] | None = None) -> str:
    """Per repository, per split, by language (given the repositories' languages), overall,
    and latency, as markdown tables."""
    parts = [matrix(results)]
    if languages:
        parts.append(by_language(results, languages))
    parts += [table(repo, rows) for repo, rows in summaries(results, lambda r: r.repo).items()]
    parts += [
        table(f"split: {s}", rows) for s, rows in summaries(results, lambda r: r.split).items()
    ]
    if results:
        parts.append(table("overall", summaries(results, lambda r: "all")["all"]))
    parts.append(latency_table(latencies(results)))
    return "\n".join(parts)
