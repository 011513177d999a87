"""The harness end to end on a tiny pinned history: mine, materialise, run, write the result.

Checks the result's structure, never its figures (those are the benchmark's output).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from tests.bench.localisation.__main__ import main as localisation_main
from tests.bench.localisation.cases import read_cases, write_cases
from tests.bench.localisation.checkout import checkout
from tests.bench.localisation.fixture_repo import bare_mirror, build
from tests.bench.localisation.mine import mine_repo
from tests.bench.localisation.rankers import SharedModel
from tests.bench.localisation.report import load_results, render
from tests.bench.localisation.repos import MirrorMissing, PinnedRepo, require_mirror, select
from tests.bench.localisation.runner import check_systems, run_benchmark
from tests.bench.localisation.sweep import KNOBS, parse_settings, run_sweep, sweep_repo
from tests.bench.localisation.sweep import render as render_sweep

METRICS = {"cases", "recall_at_1", "recall_at_5", "recall_at_10", "mrr_at_10", "ndcg_at_10"}


def pinned_tiny(tmp_path: Path) -> tuple[PinnedRepo, Path]:
    build(tmp_path / "work")
    mirrors = tmp_path / "mirrors"
    git_dir = bare_mirror(tmp_path / "work", mirrors, "local+tiny")
    head = subprocess.run(["git", "-C", str(git_dir), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    return PinnedRepo("local/tiny", "python", head, "tuning"), mirrors


@pytest.mark.slow
def test_the_harness_runs_bm25_and_keyword_end_to_end(tmp_path: Path) -> None:
    repo, mirrors = pinned_tiny(tmp_path)
    write_cases(mine_repo(repo.name, repo.git_dir(mirrors), repo.commit), tmp_path / "c.jsonl")
    cases = read_cases(tmp_path / "c.jsonl")
    assert cases, "the tiny history yields cases"
    out = tmp_path / "result.json"

    document = asyncio.run(
        run_benchmark([repo], cases, ["bm25", "keyword"], mirrors=mirrors,
                      cache=tmp_path / "cache", out=out)
    )  # fmt: skip

    assert json.loads(out.read_text()) == json.loads(json.dumps(document))
    for scope in (document["overall"], document["split"]["tuning"], document["repo"][repo.name]):
        assert set(scope) == {"bm25", "keyword"}
        for summary in scope.values():
            assert set(summary) == METRICS and summary["cases"] == len(cases)
            assert all(0.0 <= summary[m] <= 1.0 for m in METRICS - {"cases"})
    assert set(document["latency_ms"]) == {"bm25", "keyword"}
    assert {"p50", "p90"} <= set(document["latency_ms"]["bm25"])
    assert len(document["cases"]) == 2 * len(cases)
    row = document["cases"][0]
    assert {"repo", "split", "system", "commit", "query", "gold", "ranked", "score"} <= set(row)
    assert all(isinstance(path, str) for r in document["cases"] for path in r["ranked"])
    assert "| local/tiny (tuning) |" in render(
        load_results([out, out])
    )  # the saved form reads back


@pytest.mark.slow
def test_a_checkout_is_the_pinned_tree_without_git_and_is_reused(tmp_path: Path) -> None:
    repo, mirrors = pinned_tiny(tmp_path)
    root = checkout(repo, mirrors, tmp_path / "cache")
    assert (root / "src" / "parser.py").exists() and not (root / ".git").exists()
    (root / "marker").write_text("kept")
    assert checkout(repo, mirrors, tmp_path / "cache") == root
    assert (root / "marker").exists()  # not extracted again


def test_a_missing_mirror_says_where_it_looked_and_what_to_do(tmp_path: Path) -> None:
    repo = select("reporting", ["httpx"])[0]
    with pytest.raises(MirrorMissing, match=r"git clone --bare .*encode/httpx.*--mirrors"):
        require_mirror(repo, tmp_path)


def test_bad_arguments_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="--systems"):
        check_systems(["bm25", "elastic"])
    with pytest.raises(ValueError, match="--split"):
        select("holdout")
    with pytest.raises(ValueError, match="--repos"):
        select("all", ["nope"])


def test_the_benchmark_keeps_its_split_and_the_judges_repositories_out() -> None:
    tuning, reporting = select("tuning"), select("reporting")
    assert len(tuning) + len(reporting) >= 12
    languages = {r.language for r in tuning}
    assert languages == {r.language for r in reporting}
    assert {"python", "typescript", "javascript", "go", "rust", "java"} <= languages
    names = {r.name for r in tuning + reporting}
    check, dev = {r.name for r in select("check")}, {r.name for r in select("dev")}
    judge = {"pytest-dev/pytest", "honojs/hono", "caddyserver/caddy"}
    assert not (names | check | dev) & judge
    assert not names & check and not (names | check) & dev, "a repository in two splits"


@pytest.mark.slow
def test_a_sweep_ranks_every_setting_and_puts_the_constants_back(tmp_path: Path) -> None:
    repo, mirrors = pinned_tiny(tmp_path)
    cases = mine_repo(repo.name, repo.git_dir(mirrors), repo.commit)
    settings = parse_settings("fill=0.0;share=0.7,mention=1.0")
    before = {name: knob.get() for name, knob in KNOBS.items()}

    rows = asyncio.run(
        run_sweep([repo], cases, "keyword", settings, mirrors=mirrors, cache=tmp_path / "cache",
                  out=tmp_path / "sweep.json")
    )  # fmt: skip

    assert {name: knob.get() for name, knob in KNOBS.items()} == before
    assert [r.setting for r in rows[:3]] == ["base", "fill=0.0", "share=0.7,mention=1.0"]
    assert len(rows) == 3 * len(cases)
    assert len(json.loads((tmp_path / "sweep.json").read_text())["rows"]) == len(rows)
    assert "| base |" in render_sweep(rows)


def test_a_sweep_refuses_the_reporting_half_and_unknown_knobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert localisation_main(["sweep", "--settings", "share=0.6", "--repos", "httpx"]) == 2
    assert "encode/httpx: not in the tuning half or dev" in capsys.readouterr().err
    with pytest.raises(ValueError, match="KNOB=VALUE"):
        parse_settings("boost=2")
    with pytest.raises(ValueError, match="not a number"):
        parse_settings("share=high")
    repo = select("reporting", ["httpx"])[0]
    with pytest.raises(ValueError, match="sweep only tuning and dev"):
        asyncio.run(sweep_repo(repo, [], "keyword", {}, mirrors=tmp_path, cache=tmp_path,
                               shared=SharedModel()))  # fmt: skip
