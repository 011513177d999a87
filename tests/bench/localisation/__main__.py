"""Command line: `python -m tests.bench.localisation {mine,run,sweep,report} ...`."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

from tests.bench.localisation.cases import CASES_FILE, read_cases, verbatim_path, write_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE
from tests.bench.localisation.mine import mine_repo
from tests.bench.localisation.report import load_languages, load_results, render
from tests.bench.localisation.repos import (
    DEFAULT_MIRRORS,
    TUNABLE,
    MirrorMissing,
    require_mirror,
    select,
)
from tests.bench.localisation.runner import check_systems, run_benchmark
from tests.bench.localisation.sweep import parse_settings, run_sweep


def _mine(args: argparse.Namespace) -> int:
    repos = select("all", _names(args.repos))
    cases = []
    for repo in repos:
        found = mine_repo(
            repo.name, require_mirror(repo, args.mirrors), repo.commit, limit=args.per_repo
        )
        print(f"{repo.name:24} {repo.split:9} {len(found):3} cases", file=sys.stderr)
        cases += found
    count = write_cases(cases, args.out)
    write_cases(cases, verbatim_path(args.out), verbatim=True)
    print(f"wrote {count} cases to {args.out} and {verbatim_path(args.out)}", file=sys.stderr)
    return 0


def _run(args: argparse.Namespace) -> int:
    repos = select(args.split, _names(args.repos))
    systems = check_systems(_names(args.systems) or [])
    if args.limit is not None and args.limit < 1:
        raise ValueError(f"--limit must be at least 1, not {args.limit}")
    if args.verbatim:
        args.cases = verbatim_path(args.cases)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or args.cache / "results" / f"{args.split}-{stamp}.json"
    asyncio.run(
        run_benchmark(repos, read_cases(args.cases), systems, mirrors=args.mirrors,
                      cache=args.cache, out=out, limit=args.limit, argv=sys.argv)
    )  # fmt: skip
    return 0


def _sweep(args: argparse.Namespace) -> int:
    repos = select("all" if args.repos else "tuning", _names(args.repos))
    refused = [r.name for r in repos if r.split not in TUNABLE]
    if refused:
        names = ", ".join(refused)
        raise ValueError(f"--repos: {names}: not in the tuning half or dev; sweep only those")
    settings = parse_settings(args.settings)
    cases = read_cases(verbatim_path(args.cases) if args.verbatim else args.cases)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or args.cache / "results" / f"sweep-{stamp}.json"
    asyncio.run(
        run_sweep(repos, cases, args.system, settings, mirrors=args.mirrors, cache=args.cache,
                  out=out)
    )  # fmt: skip
    return 0


def _report(args: argparse.Namespace) -> int:
    print(render(load_results(args.results), load_languages(args.results)))
    return 0


def _names(text: str | None) -> list[str] | None:
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m tests.bench.localisation")
    sub = top.add_subparsers(dest="command", required=True)
    mine = sub.add_parser("mine", help="mine cases.jsonl from the pinned mirrors")
    mine.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    mine.add_argument("--repos", help="comma-separated owner/name or name (default: all)")
    mine.add_argument("--per-repo", type=int, default=30)
    mine.add_argument("--out", type=Path, default=CASES_FILE)
    mine.set_defaults(handler=_mine)
    run = sub.add_parser("run", help="score systems on the cases; print tables, write JSON")
    run.add_argument("--split", default="all", help="tuning, reporting, check, dev or all")
    run.add_argument("--systems", default="keyword,default,bm25,dense,rrf",
                     help="comma-separated: keyword,default,bundle,bm25,dense,rrf")  # fmt: skip
    run.add_argument("--repos", help="comma-separated owner/name or name (default: the split)")
    run.add_argument("--limit", type=int, help="at most N cases per repository")
    run.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    run.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                     help="checkouts, indexes, vectors, results (reused)")  # fmt: skip
    run.add_argument("--cases", type=Path, default=CASES_FILE)
    run.add_argument("--verbatim", action="store_true",
                     help="ask the commit's subject + first paragraph as written")  # fmt: skip
    run.add_argument("--out", type=Path, help="the JSON result (default: CACHE/results/...)")
    run.set_defaults(handler=_run)
    sweep = sub.add_parser("sweep", help="rank the tuning half under settings of the constants")
    sweep.add_argument(
        "--settings",
        required=True,
        help="';'-separated settings of KNOB=VALUE[,KNOB=VALUE]; knobs: share, power, support, "
        "fill, mention (base, the code's own, comes first)",
    )
    sweep.add_argument("--system", default="default", help="default or keyword")
    sweep.add_argument(
        "--repos", help="comma-separated tuning or dev repositories (default: the tuning half)"
    )
    sweep.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    sweep.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    sweep.add_argument("--cases", type=Path, default=CASES_FILE)
    sweep.add_argument("--verbatim", action="store_true")
    sweep.add_argument("--out", type=Path, help="the JSON rows (default: CACHE/results/...)")
    sweep.set_defaults(handler=_sweep)
    report = sub.add_parser("report", help="tables from saved JSON results (later files win)")
    report.add_argument("results", type=Path, nargs="+")
    report.set_defaults(handler=_report)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (MirrorMissing, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
