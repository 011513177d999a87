"""Run systems over the cases: rank, score, print tables as it goes, write one JSON result.

Every system answers through the same `rank(query) -> paths` callable, so repocontext and the
baselines are scored by the same code (query_api.evaluation.scoring). Latency is the time of that
call alone, in process; indexing and embedding are timed separately (`open_s`).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from query_api.evaluation.scoring import CaseScore, ScoreSummary, score_case, summarise_by
from tests.bench.localisation.checkout import cache_key, checkout
from tests.bench.localisation.mine import Case
from tests.bench.localisation.rankers import SYSTEMS, SharedModel, open_rankers
from tests.bench.localisation.repos import PinnedRepo

KEPT_RANKS = 10


@dataclass(frozen=True)
class CaseResult:
    repo: str
    split: str
    system: str
    commit: str
    query: str
    gold: tuple[str, ...]
    ranked: tuple[str, ...]  # the top KEPT_RANKS, for reading the misses
    score: CaseScore
    latency_ms: float


def check_systems(names: list[str]) -> list[str]:
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown or not names:
        raise ValueError(f"--systems: unknown {unknown or names}; choose from {', '.join(SYSTEMS)}")
    return names


async def run_repo(
    repo: PinnedRepo, cases: list[Case], systems: list[str], *, mirrors: Path, cache: Path,
    shared: SharedModel,
) -> tuple[list[CaseResult], dict[str, float]]:  # fmt: skip
    """Every case of one repository through every system, and how long each took to open."""
    root = checkout(repo, mirrors, cache)
    opened = await open_rankers(systems, root, cache, cache_key(repo), shared)
    results: list[CaseResult] = []
    try:
        for name in systems:
            rank = opened.rankers[name]
            for case in cases:
                began = time.perf_counter()
                ranked = await rank(case.query)
                elapsed = (time.perf_counter() - began) * 1000
                results.append(
                    CaseResult(repo.name, repo.split, name, case.commit, case.query, case.gold,
                               tuple(ranked[:KEPT_RANKS]), score_case(ranked, case.gold), elapsed)
                )  # fmt: skip
    finally:
        await opened.close()
    return results, opened.open_s


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile, q in 0..100."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summaries(results: Iterable[CaseResult], group: Callable[[CaseResult], str]
              ) -> dict[str, dict[str, ScoreSummary]]:  # fmt: skip
    """group -> system -> summary."""
    nested: dict[str, dict[str, ScoreSummary]] = {}
    flat = summarise_by(((group(r), r.system), r.score) for r in results)
    for (key, system), summary in flat.items():
        nested.setdefault(key, {})[system] = summary
    return nested


def by_language(results: list[CaseResult], languages: dict[str, str]) -> str:
    """R@10 per language and split, each system beside the plain RRF baseline when it ran
    (issue 20's bar: +0.06 R@10 over it on every language, on the reporting half)."""
    grouped = summaries(results, lambda r: f"{languages.get(r.repo, '?')} ({r.split})")
    systems = list(dict.fromkeys(r.system for r in results))
    head = "| language | " + " | ".join(systems) + " |"
    lines = ["\nR@10 by language (the difference to rrf)", head, "|---|" + "---|" * len(systems)]
    for key in sorted(grouped):
        rows = grouped[key]
        base = rows["rrf"].recall_at_10 if "rrf" in rows else None
        cells = []
        for system in systems:
            if system not in rows:
                cells.append("-")
                continue
            value = rows[system].recall_at_10
            against = "" if base is None or system == "rrf" else f" ({value - base:+.3f})"
            cells.append(f"{value:.3f}{against}")
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def latencies(results: Iterable[CaseResult]) -> dict[str, dict[str, float]]:
    by_system: dict[str, list[float]] = {}
    for r in results:
        by_system.setdefault(r.system, []).append(r.latency_ms)
    return {
        name: {"p50": round(percentile(v, 50), 2), "p90": round(percentile(v, 90), 2)}
        for name, v in by_system.items()
    }


def table(title: str, rows: dict[str, ScoreSummary]) -> str:
    lines = [f"\n{title}", "| system | R@1 | R@5 | R@10 | MRR@10 | nDCG@10 | cases |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, s in rows.items():
        lines.append(
            f"| {name} | {s.recall_at_1:.3f} | {s.recall_at_5:.3f} | {s.recall_at_10:.3f} "
            f"| {s.mrr_at_10:.3f} | {s.ndcg_at_10:.3f} | {s.cases} |"
        )
    return "\n".join(lines)


def latency_table(figures: dict[str, dict[str, float]]) -> str:
    lines = ["\nquery latency (ms, in process)", "| system | p50 | p90 |", "|---|---|---|"]
    lines += [f"| {n} | {f['p50']:.1f} | {f['p90']:.1f} |" for n, f in figures.items()]
    return "\n".join(lines)


def result_document(
    repos: list[PinnedRepo],
    systems: list[str],
    results: list[CaseResult],
    open_s: dict[str, dict[str, float]],
    argv: list[str],
) -> dict[str, Any]:
    def plain(nested: dict[str, dict[str, ScoreSummary]]) -> dict[str, Any]:
        return {k: {s: asdict(v) for s, v in rows.items()} for k, rows in nested.items()}

    return {
        "command": argv,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "repos": [asdict(r) for r in repos],
        "systems": systems,
        "overall": plain(summaries(results, lambda r: "all")).get("all", {}),
        "split": plain(summaries(results, lambda r: r.split)),
        "repo": plain(summaries(results, lambda r: r.repo)),
        "latency_ms": latencies(results),
        "open_s": open_s,
        "cases": [asdict(r) for r in results],
    }


async def run_benchmark(
    repos: list[PinnedRepo], cases: list[Case], systems: list[str], *, mirrors: Path,
    cache: Path, out: Path, limit: int | None = None, argv: list[str] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Score every system on every repository's cases; print tables; write the JSON to `out`."""
    check_systems(systems)
    shared = SharedModel()
    results: list[CaseResult] = []
    open_s: dict[str, dict[str, float]] = {}
    for repo in repos:
        own = [c for c in cases if c.repo == repo.name][:limit]
        if not own:
            print(f"\n{repo.name}: no cases, skipped", file=sys.stderr)
            continue
        found, open_s[repo.name] = await run_repo(
            repo, own, systems, mirrors=mirrors, cache=cache, shared=shared
        )
        results += found
        print(table(f"{repo.name} ({repo.split}, {repo.language})",
                    summaries(found, lambda r: "x")["x"]), flush=True)  # fmt: skip
        _write(out, result_document(repos, systems, results, open_s, argv or []))
    for split, rows in summaries(results, lambda r: r.split).items():
        print(table(f"split: {split}", rows))
    if results:
        print(table("overall", summaries(results, lambda r: "all")["all"]))
        print(by_language(results, {r.name: r.language for r in repos}))
    print(latency_table(latencies(results)), flush=True)
    document = result_document(repos, systems, results, open_s, argv or [])
    _write(out, document)
    print(f"\nresult: {out}", file=sys.stderr)
    return document


def _write(out: Path, document: dict[str, Any]) -> None:
    """After every repository, so a long run that is stopped keeps what it measured."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(document, indent=1))
    tmp.replace(out)
