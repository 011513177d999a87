"""The symbols stage against a bare parse in machine instructions, not seconds.

    .venv/bin/python -m tests.bench.symbol_instructions [--corpus rxjs|django] [--files N]

Timings on this shared machine drift by +-15% within a minute, more than most changes to the
stage are worth; instruction counts do not drift. Valgrind's cachegrind counts the
instructions of three runs of one child process: setup only (load the corpus, build the
grammars and queries), setup + a bare parse of every file, setup + the stage
(`symbols_of`) on every file. The differences give each part's instructions and the stage
/ parse ratio. Instructions are not time: a parse in a tight loop keeps its tables in the
cache and has the better instructions per cycle, so the timed ratio
(`python -m tests.bench.symbols_bench`) runs some 5-15% higher. Use this to compare two
versions of the stage; report the timed bench. Needs valgrind; slow (a minute per run on
rxjs, several on all of Django).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from processors.symbols.grammars import grammar_for, parser_of
from processors.symbols.processor import symbols_of
from query_api.settings import default_data_dir
from tests.bench.indexing import fetch_corpus
from tests.bench.symbols_bench import fetch_npm_corpus, load_sources

MODES = ("setup", "parse", "stage")


def child(corpus: str, files: int, mode: str) -> None:
    cache = default_data_dir() / "bench"
    root = fetch_npm_corpus(cache) if corpus == "rxjs" else fetch_corpus(cache)
    upserts = load_sources(root)[:files]
    for upsert in upserts[:50]:
        symbols_of(upsert)  # grammars and query plans are built once per process: setup
    for upsert in upserts:
        if mode == "parse":
            grammar = grammar_for(upsert.language, upsert.path, upsert.body)
            assert grammar is not None
            parser_of(grammar).parse(upsert.body.encode("utf-8"))
        elif mode == "stage":
            symbols_of(upsert)


def instructions(corpus: str, files: int, mode: str) -> int:
    with tempfile.NamedTemporaryFile(prefix="cachegrind-") as out:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out.name}",
                sys.executable,
                "-m",
                "tests.bench.symbol_instructions",
                "--child",
                mode,
                "--corpus",
                corpus,
                "--files",
                str(files),
            ],
            env={**os.environ, "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.symbol_instructions")
    parser.add_argument("--corpus", choices=("rxjs", "django"), default="rxjs")
    parser.add_argument("--files", type=int, default=1_000_000, help="the first N files only")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.corpus, args.files, args.child)
        return 0
    counts = {}
    for mode in MODES:
        counts[mode] = instructions(args.corpus, args.files, mode)
        print(f"{mode}: {counts[mode]:,} instructions", file=sys.stderr)
    parse = counts["parse"] - counts["setup"]
    stage = counts["stage"] - counts["setup"]
    report = {
        "corpus": args.corpus,
        "parse_instructions": parse,
        "stage_instructions": stage,
        "stage_vs_bare_parse": round(stage / parse, 3),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
