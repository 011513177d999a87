"""Sweep: the tuning half's (or the dev set's) cases ranked under several settings of the
ranking's constants.

How the fusion's keyword share and power, the passage support, the tail fill's weight and
the mention boost were chosen, and how to choose them again: each setting sets those module
constants for its own rank calls, then puts them back, so every setting ranks the same cases
on the same index in one process. It refuses the reporting half and the check set: the
figures it prints are for choosing, and choosing on those would make their figures worthless.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import query_api.retrieval.fusion as fusion
import query_api.retrieval.ladder as ladder
import query_api.retrieval.neighbour_fill as neighbour_fill
import streams.stores.views.search as views_search
from query_api.evaluation.scoring import CaseScore, ScoreSummary, score_case, summarise_by
from tests.bench.localisation.checkout import cache_key, checkout
from tests.bench.localisation.mine import Case
from tests.bench.localisation.rankers import EMBEDDED, SharedModel, open_rankers
from tests.bench.localisation.repos import TUNABLE, PinnedRepo

BASE = "base"  # the constants as the code has them


@dataclass(frozen=True)
class Knob:
    """One module-level constant the ranking reads at call time."""

    module: ModuleType
    attribute: str

    def __post_init__(self) -> None:
        if not isinstance(getattr(self.module, self.attribute, None), float):
            raise TypeError(f"{self.module.__name__}.{self.attribute} is not a float constant")

    def get(self) -> float:
        value = getattr(self.module, self.attribute)
        assert isinstance(value, float)
        return value

    def set(self, value: float) -> None:
        setattr(self.module, self.attribute, value)


KNOBS = {
    "share": Knob(fusion, "KEYWORD_SHARE"),
    "power": Knob(fusion, "KEYWORD_POWER"),
    "support": Knob(ladder, "PASSAGE_SUPPORT"),
    "fill": Knob(neighbour_fill, "WEIGHT"),
    "mention": Knob(views_search, "MENTION_BOOST"),
}

Setting = dict[str, float]  # knob name -> value; the other knobs keep the code's value


def parse_settings(text: str) -> dict[str, Setting]:
    """`share=0.6;share=0.65,fill=0.2` -> named settings, `base` first."""
    settings: dict[str, Setting] = {BASE: {}}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        setting: Setting = {}
        for pair in part.split(","):
            name, sep, value = pair.partition("=")
            if not sep or name.strip() not in KNOBS:
                known = ", ".join(KNOBS)
                raise ValueError(f"--settings: {pair!r} is not KNOB=VALUE with KNOB in {known}")
            try:
                setting[name.strip()] = float(value)
            except ValueError:
                raise ValueError(f"--settings: {value!r} in {pair!r} is not a number") from None
        settings[part] = setting
    return settings


@contextmanager
def applied(setting: Setting) -> Iterator[None]:
    """The setting's constants for the duration of the block, the code's own after it."""
    saved = {name: KNOBS[name].get() for name in setting}
    try:
        for name, value in setting.items():
            KNOBS[name].set(value)
        yield
    finally:
        for name, value in saved.items():
            KNOBS[name].set(value)


@dataclass(frozen=True)
class SweepRow:
    repo: str
    language: str
    setting: str
    gold: tuple[str, ...]
    ranked: tuple[str, ...]
    score: CaseScore


async def sweep_repo(
    repo: PinnedRepo, cases: list[Case], system: str, settings: dict[str, Setting], *,
    mirrors: Path, cache: Path, shared: SharedModel,
) -> list[SweepRow]:  # fmt: skip
    if repo.split not in TUNABLE:
        raise ValueError(f"{repo.name} is in the {repo.split} set: sweep only tuning and dev")
    opened = await open_rankers([system], checkout(repo, mirrors, cache), cache,
                                cache_key(repo), shared)  # fmt: skip
    rows: list[SweepRow] = []
    try:
        rank = opened.rankers[system]
        for case in cases:
            for name, setting in settings.items():
                with applied(setting):
                    ranked = await rank(case.query)
                score = score_case(ranked, case.gold)
                rows.append(
                    SweepRow(repo.name, repo.language, name, case.gold, tuple(ranked[:10]), score)
                )
    finally:
        await opened.close()
    return rows


def render(rows: list[SweepRow]) -> str:
    """Per setting: R@10 / MRR@10 by language, then R@1/R@5/R@10/MRR@10 overall."""
    languages = sorted({r.language for r in rows})
    by_language = summarise_by(((r.setting, r.language), r.score) for r in rows)
    overall = summarise_by((r.setting, r.score) for r in rows)
    head = "| setting | " + " | ".join(languages) + " | all R@1/R@5/R@10/MRR@10 |"
    lines = [head, "|---" * (len(languages) + 2) + "|"]
    for setting, total in overall.items():
        cells = [_pair(by_language[(setting, lang)]) for lang in languages]
        whole = "/".join(f"{v:.3f}" for v in (total.recall_at_1, total.recall_at_5,
                                               total.recall_at_10, total.mrr_at_10))  # fmt: skip
        lines.append(f"| {setting} | " + " | ".join(cells) + f" | {whole} |")
    return "\n".join(lines)


def _pair(summary: ScoreSummary) -> str:
    return f"{summary.recall_at_10:.3f}/{summary.mrr_at_10:.3f}"


async def run_sweep(
    repos: list[PinnedRepo], cases: list[Case], system: str, settings: dict[str, Setting], *,
    mirrors: Path, cache: Path, out: Path,
) -> list[SweepRow]:  # fmt: skip
    """Every setting on every tuning repository's cases; the table after each repository."""
    if system not in EMBEDDED | {"keyword"}:
        raise ValueError(f"--system: {system!r} is not a repocontext system (keyword, default)")
    shared = SharedModel()
    rows: list[SweepRow] = []
    for repo in repos:
        own = [c for c in cases if c.repo == repo.name]
        rows += await sweep_repo(repo, own, system, settings, mirrors=mirrors, cache=cache,
                                 shared=shared)  # fmt: skip
        print(f"\nafter {repo.name}\n{render(rows)}", flush=True)
        _write(out, rows, settings)
    print(f"\nresult: {out}", file=sys.stderr)
    return rows


def _write(out: Path, rows: list[SweepRow], settings: dict[str, Setting]) -> None:
    document: dict[str, Any] = {"settings": settings, "rows": [asdict(r) for r in rows]}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=1))
