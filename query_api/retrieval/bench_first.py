"""A question whose subject is benchmarks gets the benchmarks first.

`where are the benchmarks for masking`, `benchmarks for the router`, `show me the benchmarks`
look for benchmark code: a `benches/` or `benchmarks/` folder (path_roles' bench role), and in
Go, where a benchmark is a `func BenchmarkX(b *testing.B)` in a `_test.go` file, the test
files declaring them. QA on gorilla/websocket: `benchmarks for masking` ranked the source
files holding `masking`, and mask_test.go, declaring `BenchmarkMaskBytes`, below them. So when
the query asks for benchmarks, the files of the ranking that are benchmarks, by their folder or
by the benchmark functions they declare (Go's `Benchmark*`, Rust's and Python's `bench_*`), and
hold the subject come first, in their order; the rest after. A request to add or fix a
benchmark changes the code it measures as often, so it is not such a question.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from processors.path_roles import Role, role_of
from query_api.retrieval.hit_details import QueryTerms, query_terms
from query_api.retrieval.word_forms import forms
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import files_under, files_with_path_words
from streams.stores.views.symbol_spans import spans_of_files

Holds = Callable[[str, QueryTerms], bool]  # (path, the subject's terms) -> whether it holds it
Benchmarks = Callable[[list[str]], set[str]]  # paths -> those declaring benchmark functions

_ABOUT_BENCHMARKS = re.compile(
    r"""^\s*
    (?:(?:where|which|what)\s+(?:are|is|do|does)?\s*
      |(?:find|show|list|locate|open|get)\s+(?:me\s+)?)?
    (?:the\s+|all\s+|any\s+|existing\s+)?
    (?:micro-?\s*)?benchmarks?(?:\s+(?:files?|suites?|tests?))?
    (?:\s+(?:for|of|on|in|covering|covers?|measuring|about)\b|\s*\??\s*$)""",
    re.IGNORECASE | re.VERBOSE,
)
_BENCH_WORDS = re.compile(
    r"(?<![\w$])(?:micro-?\s*)?(?:benchmarks?|bench|benches)(?![\w$])", re.IGNORECASE
)
REASON = "benchmarks"  # a hit placed first for holding the benchmarks asked for
MAX_NAMED = 5  # benchmarks named for the subject brought in: more is every one of a word
NEAR_SOURCES = 3  # the first source files whose folders' benchmarks are brought in
_LISTED = 1_000  # files listed under a folder, its subfolders' among them
# a benchmark function's name: Go's `BenchmarkParse`, `Benchmark_parse`; `bench_parse`
_BENCHMARK_NAME = re.compile(r"^(?:Benchmark(?:[A-Z0-9_]|$)|bench_|benchmark_)")


def asks_benchmarks(query: str) -> bool:
    """Whether the query's subject is benchmarks (`benchmarks for X`, `where are the
    benchmarks`), not a request naming them (`add a benchmark for X`)."""
    return _ABOUT_BENCHMARKS.match(query) is not None


def benches_first(query: str, hits: list[t.SearchHit], reads: BenchReads) -> list[t.SearchHit]:
    """`hits` with the benchmark files holding the query's subject first (each scored as the
    first hit was), when the query asks for benchmarks: those of the ranking, by their folder
    or the benchmark functions they declare, then the test files declaring benchmarks beside
    its first source files, brought in (the role prior keeps tests out of the ranking, and
    Go's live beside the code they measure). Else, or when none holds it, `hits` as they are."""
    asked = _ABOUT_BENCHMARKS.match(query)
    if asked is None:
        return hits
    # the subject after the words asking (`show me the benchmarks for masking`: `masking`)
    terms = query_terms(_BENCH_WORDS.sub(" ", query[asked.end() :]))
    files = [hit for hit in hits if hit.entry.kind == "File" and hit.entry.path]
    paths = [hit.entry.path or "" for hit in files]
    sources = [path for path in paths if role_of(path) == Role.SOURCE][:NEAR_SOURCES]
    folders = sorted({path.rpartition("/")[0] for path in sources})
    tests = [path for path in paths if role_of(path) == Role.TEST]
    beside = [path for path in reads.beside(folders) if path not in paths]
    declaring = reads.benchmarks([*tests, *beside]) if tests or beside else set()
    ranked = [hit for hit in files if role_of(hit.entry.path or "") == Role.BENCH]
    ranked += [hit for hit in files if hit.entry.path in declaring and hit not in ranked]
    brought = [reads.hydrate(path) for path in beside if path in declaring]
    named = _named_benches(terms, reads, files)
    benches = named + [
        hit
        for hit in [*ranked, *(hit for hit in brought if hit is not None)]
        if hit not in named and reads.holds(hit.entry.path or "", terms)
    ]
    if not benches:
        return hits
    top = max((hit.score for hit in hits), default=0.0)
    head = [
        hit.model_copy(update={"score": max(hit.score, top), "reasons": _with_reason(hit.reasons)})
        for hit in benches
    ]
    moved = {hit.entry.path for hit in benches}
    return [*head, *(hit for hit in hits if hit.entry.path not in moved)]


def _named_benches(
    terms: QueryTerms, reads: BenchReads, files: list[t.SearchHit]
) -> list[t.SearchHit]:
    """The bench folders' files whose own name holds a word of the subject (`span_fields.rs`,
    `empty_span.rs` of `span creation`), those holding the most first, then in path order:
    a benchmark is named for what it measures, and the role prior keeps them out of the
    ranking, where a bench folder's helper holding the words came first. QA on
    tokio-rs/tracing: `where are the benchmarks for span creation` put benches/shared.rs
    first and no benchmark named for spans in the first ten."""
    counts: dict[str, int] = {}
    for word in sorted(terms.words | terms.parts):
        named = {word, *forms(word)}  # `filter.rs` of `filtering`
        found = {path for form in sorted(named) for path in reads.named(form)}
        for path in found:
            stem = re.split(r"[_\W]+", path.rpartition("/")[2].split(".", 1)[0].casefold())
            if role_of(path) == Role.BENCH and named.intersection(stem):
                counts[path] = counts.get(path, 0) + 1
    ranked = {hit.entry.path: hit for hit in files}
    out: list[t.SearchHit] = []
    for path in sorted(counts, key=lambda path: (-counts[path], path))[:MAX_NAMED]:
        hit = ranked.get(path) or reads.hydrate(path)
        out += [hit] if hit is not None else []
    return out


def _with_reason(reasons: list[str]) -> list[str]:
    return reasons if REASON in reasons else [REASON, *reasons]


@dataclass(frozen=True)
class BenchReads:
    """What placing the benchmarks reads from the views."""

    holds: Holds  # whether a file holds the subject
    benchmarks: Benchmarks  # which of some files declare benchmark functions
    beside: Callable[[list[str]], list[str]]  # the test files directly in some folders
    hydrate: Callable[[str], t.SearchHit | None]  # a file's hit, to bring it in
    named: Callable[[str], list[str]]  # the files whose path holds a word


def tests_beside(views: ViewStore, repo_id: str, folders: list[str]) -> list[str]:
    """The test files directly in `folders` (`""`: the root), by path."""

    def read(conn: sqlite3.Connection) -> list[str]:
        found: list[str] = []
        for folder in folders:
            prefix = f"{folder}/" if folder else ""
            found += [
                row.path
                for row in files_under(conn, repo_id, prefix, None, _LISTED)
                if "/" not in row.path[len(prefix) :] and role_of(row.path) == Role.TEST
            ]
        return found

    return views.read(read)


def bench_reads(
    views: ViewStore,
    repo_id: str,
    holds: Callable[[str, str, QueryTerms], bool],
    hydrate: Callable[[str, str], t.SearchHit | None],
) -> BenchReads:
    """The reads of one repository's views benches_first makes (`holds` and `hydrate` take
    the repository first)."""
    return BenchReads(
        partial(holds, repo_id),
        partial(benchmark_files, views, repo_id),
        partial(tests_beside, views, repo_id),
        partial(hydrate, repo_id),
        partial(_path_words, views, repo_id),
    )


def _path_words(views: ViewStore, repo_id: str, word: str) -> list[str]:
    """The files whose path holds `word` (one FTS5 read of the path column), by path."""
    return views.read(partial(files_with_path_words, repo_id=repo_id, name=word, limit=_LISTED))


def benchmark_files(views: ViewStore, repo_id: str, paths: list[str]) -> set[str]:
    """The files of `paths` declaring a benchmark function (by its name), in one read."""

    def read(conn: sqlite3.Connection) -> set[str]:
        found = spans_of_files(conn, repo_id, paths)
        return {path for path, spans in found.items() if _any_benchmark(s.name for s in spans)}

    return views.read(read)


def _any_benchmark(names: Iterable[str]) -> bool:
    return any(_BENCHMARK_NAME.match(name) for name in names)
