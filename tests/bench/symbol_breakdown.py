"""Where the symbols stage's time goes over a bare parse, part by part (a benchmark, not a test).

    .venv/bin/python -m tests.bench.symbol_breakdown [--corpus rxjs|django] [--runs 7]

Five loops over the same files, each run timing them one after the other, and per part the
median over the runs of its ratio to the parse loop of the same run:
- `parse`: a bare parse of every file (the floor);
- `walk`: the parse plus a one-pattern query over the whole tree (`(<root type>) @root`):
  what any query costs before a pattern matches;
- `query`: the parse plus the language's query passes, matches built (processors.symbols);
- `extract`: the parse, the passes and the extraction in Python (symbols, references);
- `stage`: `symbols_of`, which also validates the two records.
The differences between neighbours are the parts' costs. Loops favour the parse a little
(its tables stay in the cache); `python -m tests.bench.symbols_bench` says by how much.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from tree_sitter import Query, QueryCursor

from processors.symbols.extract import extract
from processors.symbols.grammars import Grammar, grammar_for, language_of, parser_of, plan_of
from processors.symbols.processor import symbols_of
from query_api.settings import default_data_dir
from schemas.events import FileUpsert
from tests.bench.indexing import fetch_corpus
from tests.bench.symbols_bench import fetch_npm_corpus, load_sources


def _walk_query(grammar: Grammar) -> Query:
    root = parser_of(grammar).parse(b"").root_node.type
    return Query(language_of(grammar), f"({root}) @root")


def parts(files: list[tuple[Grammar, FileUpsert]]) -> dict[str, Callable[[], None]]:
    walks = {grammar: _walk_query(grammar) for grammar, _ in files}

    def parse() -> None:
        for grammar, f in files:
            parser_of(grammar).parse(f.body.encode("utf-8"))

    def walk() -> None:
        for grammar, f in files:
            tree = parser_of(grammar).parse(f.body.encode("utf-8"))
            QueryCursor(walks[grammar]).matches(tree.root_node)

    def query() -> None:
        for grammar, f in files:
            tree = parser_of(grammar).parse(f.body.encode("utf-8"))
            for qpass in plan_of(grammar).passes:
                cursor = QueryCursor(qpass.query)
                if qpass.max_start_depth is not None:
                    cursor.set_max_start_depth(qpass.max_start_depth)
                cursor.matches(tree.root_node)

    def extract_all() -> None:
        for grammar, f in files:
            extract(f.body, f.language, f.path, grammar)

    def stage() -> None:
        for _grammar, f in files:
            symbols_of(f)

    return {"parse": parse, "walk": walk, "query": query, "extract": extract_all, "stage": stage}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.symbol_breakdown")
    parser.add_argument("--corpus", choices=("rxjs", "django"), default="rxjs")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    cache = default_data_dir() / "bench"
    root = fetch_npm_corpus(cache) if args.corpus == "rxjs" else fetch_corpus(cache)
    files: list[tuple[Grammar, FileUpsert]] = []
    for upsert in load_sources(root):
        grammar = grammar_for(upsert.language or "", upsert.path, upsert.body)
        assert grammar is not None  # load_sources keeps only files with a grammar
        files.append((grammar, upsert))
    loops = parts(files)
    loops["stage"]()  # grammars and query plans are built once per process
    seconds: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(args.runs):
        for name, loop in loops.items():
            started = time.perf_counter()
            loop()
            seconds[name].append(time.perf_counter() - started)
    floor = seconds["parse"]
    report = {
        "corpus": args.corpus,
        "files": len(files),
        "runs": args.runs,
        "seconds": {name: round(statistics.median(s), 4) for name, s in seconds.items()},
        "vs_parse": {
            name: round(statistics.median(a / b for a, b in zip(s, floor, strict=True)), 3)
            for name, s in seconds.items()
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
