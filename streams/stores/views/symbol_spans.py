"""What search needs of a file's declarations: each one's names and lines, nothing else.

Search reads the declarations of every file it answers with, to name its `symbol:` reasons
and to find the hit's lines, and a C header declares thousands. A SymbolSpan keeps four of a
declaration's seven fields, so the cache of them holds twice the rows of SymbolRows in the
same memory.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol

from processors.tokenizer import name_tokens
from streams.stores.views.file_cache import FileRowsCache, PerStoreCaches
from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_decls import decls_of_files


class SymbolSpan(NamedTuple):
    """One declaration: its names and where it is (SymbolRow's fields of the same names)."""

    fq_name: str
    name: str
    start_line: int
    end_line: int
    kind: str = ""


def spans_of_files(
    conn: sqlite3.Connection, repo_id: str, paths: Sequence[str]
) -> dict[str, list[SymbolSpan]]:
    """path -> its declarations' spans, in declaration order (start line, then fq name), for
    the files of `paths` that declare any: one read for all of them (as symbols_of_files)."""
    found = decls_of_files(conn, repo_id, paths)
    return {
        path: [SymbolSpan(d[0], d[1], d[3], d[4], d[2]) for d in found[path]]
        for path in sorted(found)
    }


# Spans the cache holds at most (~250 bytes each: ~10 MiB).
CACHED_SPANS = 40_000

FileSpansCache = FileRowsCache[SymbolSpan]
_CACHES = PerStoreCaches[SymbolSpan](spans_of_files, CACHED_SPANS)


def file_spans_cache(store: ViewStore) -> FileSpansCache:
    """The store's cache of declaration spans (one per store, made on first use)."""
    return _CACHES.of(store)


class Named(Protocol):
    """A declaration's names (SymbolSpan's and SymbolRow's)."""

    @property
    def fq_name(self) -> str: ...

    @property
    def name(self) -> str: ...


class Declared(Named, Protocol):
    """A declaration's names and lines (SymbolSpan's and SymbolRow's)."""

    @property
    def start_line(self) -> int: ...

    @property
    def end_line(self) -> int: ...

    @property
    def kind(self) -> str: ...


def matching_names(rows: Sequence[Named], weights: Mapping[str, float], limit: int) -> list[str]:
    """The fq names of at most `limit` of `rows` whose simple name shares a token with the
    query (`weights`: each query word's idf), those whose shared words weigh most first, then
    in the order of `rows`. The first matches in the file are not the ones a request is
    about: 'where are hooks like beforeRequest and afterResponse invoked' named ky's
    top-of-file `maxErrorResponseBodySize` (one shared word) and left out
    `#runBeforeRequestHooks` (three); 'retry jitter' named four `retry` declarations of
    ky's types/retry.ts and not `RetryOptions.jitter`, whose one word is the rarer. Grouped
    by weight, not sorted: a C header's thousands of matching declarations cost one pass
    (about 1 ms for 5,000). Of names weighing the same, those whose qualifier shares words
    with the query come first: 'client builder timeout' named reqwest's async client.rs by
    `Config.connect_timeout` and `Config.pool_idle_timeout` (fields declared first), not
    `ClientBuilder.timeout`, and the hit's lines followed the first reason."""
    by_weight: dict[float, list[Named]] = {}
    for row in rows:
        shared = name_tokens(row.name).intersection(weights)
        if shared:
            weight = round(sum(weights[word] for word in shared), 9)
            by_weight.setdefault(weight, []).append(row)
    named: list[str] = []
    qualifiers: dict[str, float] = {}  # a qualifier -> the weight of the query words it holds
    for weight in sorted(by_weight, reverse=True):
        group = sorted(
            by_weight[weight], key=lambda row: -_qualifier_weight(row, weights, qualifiers)
        )
        named += [row.fq_name for row in group[: limit - len(named)]]
        if len(named) >= limit:
            break
    return named


def _qualifier_weight(row: Named, weights: Mapping[str, float], memo: dict[str, float]) -> float:
    """The weight of the query words the qualifier of `row`'s name holds (`ClientBuilder` of
    `ClientBuilder.timeout`): 0 for a name declared at the top level."""
    at = row.fq_name.rfind("." + row.name)
    qualifier = row.fq_name[:at] if at > 0 else ""
    if not qualifier:
        return 0.0
    # rounded as matching_names' groups are: the sums run over sets, whose order (and so the
    # last bits of a float sum) changes from process to process, and ties flipped with it
    if qualifier not in memo:
        memo[qualifier] = sum(weights[word] for word in name_tokens(qualifier) if word in weights)
    # only the words the name does not hold already: QA on valyala/fasthttp, `tests for
    # parseTrailer` led with the field `trailer` of a table inside
    # TestResponseHeaderAddTrailerRejectsInvalidNames, above that test
    held = name_tokens(qualifier).intersection(weights, name_tokens(row.name))
    return round(memo[qualifier] - sum(weights[word] for word in held), 9)


def matching_symbols_of_files(
    conn: sqlite3.Connection,
    repo_id: str,
    paths: Sequence[str],
    weights: Mapping[str, float],
    limit: int,
    cache: FileSpansCache | None = None,
) -> dict[str, list[str]]:
    """path -> fq names of the file's symbols whose simple name shares a token with the query
    (the `symbol:<fqName>` reasons), those whose shared words weigh most first, at most `limit` per
    file: one read for all of a search's ranked hits that `cache` does not hold, not one per
    hit."""
    declared = (
        cache.of_files(conn, repo_id, paths) if cache else spans_of_files(conn, repo_id, paths)
    )
    return {path: matching_names(rows, weights, limit) for path, rows in declared.items()}
