"""Command line: `python -m tests.bench.localisation {mine,run} ...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.bench.localisation.cases import CASES_FILE, write_cases
from tests.bench.localisation.mine import mine_repo
from tests.bench.localisation.repos import DEFAULT_MIRRORS, MirrorMissing, require_mirror, select


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
    print(f"wrote {count} cases to {args.out}", file=sys.stderr)
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
