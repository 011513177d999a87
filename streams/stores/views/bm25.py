"""The reference's BM25 IDF (spec §3.4) over SQLite FTS5, shared by code and memory search.

FTS5's bm25() sums, per query phrase, idf * tf-part with idf = ln((N - df + 0.5)/(df + 0.5))
floored at 1e-6, N and df counted in that one table. The reference's idf is
ln(1 + (N - df + 0.5)/(df + 0.5)), always positive, over one corpus of code and memory records.
Two failures followed: a term in more than half of a table's rows scored ~0 (with one memory
entry, N = df = 1, every word of that entry scored 1e-6 x its tf-part), and files and memory
entries ranked against each other with statistics of different tables.

So every table is matched one query token at a time (each bm25() is then that token's FTS5
idf x its tf-part) and each row's score is rescaled by `corpus idf / FTS5 idf` before the
tokens are summed, in SQL (`token_union`). The corpus idf takes N and df over code (content
rows) and memory entries together, so a file and an entry matching the same word weigh it the
same. Counts span every repository in the file (as FTS5's own did); length normalisation stays
FTS5's, per table (a memory entry is compared with entries, a file with files).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FTS_IDF_FLOOR = 1e-6  # FTS5's floor for a non-positive idf (fts5_aux.c)


@dataclass(frozen=True, slots=True)
class FtsTable:
    """An FTS5 table and the fts5vocab 'row' table that counts its documents per term."""

    name: str

    @property
    def vocab(self) -> str:
        return f"{self.name}_vocab"


CONTENT_FTS = FtsTable("content_fts")
SYMBOL_FTS = FtsTable("symbol_fts")
MEMORY_FTS = FtsTable("memory_fts")
CORPUS = (CONTENT_FTS, MEMORY_FTS)  # the records N and df count (a file's symbols are the file)

BM25_VOCAB_DDL = tuple(
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {t.vocab} USING fts5vocab({t.name}, 'row')"
    for t in (CONTENT_FTS, SYMBOL_FTS, MEMORY_FTS)
)


def spec_idf(n: int, df: int) -> float:
    """The reference's idf: ln(1 + (N - df + 0.5)/(df + 0.5))."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def fts5_idf(n: int, df: int) -> float:
    """The idf FTS5's bm25() multiplied a one-token match by."""
    idf = math.log((n - df + 0.5) / (df + 0.5))
    return idf if idf > 0.0 else FTS_IDF_FLOOR


def row_count(conn: sqlite3.Connection, table: FtsTable) -> int:
    """FTS5's N: one row of the docsize shadow table per document (a B-tree count)."""
    return int(conn.execute(f"SELECT count(*) FROM {table.name}_docsize").fetchone()[0])


def doc_frequency(conn: sqlite3.Connection, table: FtsTable, token: str) -> int:
    row = conn.execute(f"SELECT doc FROM {table.vocab} WHERE term = ?", (token,)).fetchone()
    return int(row[0]) if row is not None else 0


@dataclass(frozen=True, slots=True)
class CorpusIdf:
    """Per query token: the corpus idf, and each table's N and df to undo FTS5's idf."""

    idf: dict[str, float]
    counts: dict[str, tuple[int, dict[str, int]]]  # table name -> (N, df per token)

    def scales(self, table: FtsTable) -> list[tuple[str, float]]:
        """(token, corpus idf / FTS5 idf) for the tokens the table holds, in query order."""
        n, dfs = self.counts[table.name]
        return [(tok, self.idf[tok] / fts5_idf(n, df)) for tok, df in dfs.items() if df > 0]


TableCounts = tuple[int, dict[str, int]]  # N, and df per token


def corpus_idf(
    conn: sqlite3.Connection,
    tokens: Sequence[str],
    tables: Sequence[FtsTable],
    known: Mapping[str, TableCounts] | None = None,
) -> CorpusIdf:
    """The corpus idf of each token (N and df over CORPUS) and the counts of `tables`; `known`
    holds counts a caller has already (search's in-memory postings), by table name."""
    counts: dict[str, TableCounts] = dict(known or {})
    for table in {*CORPUS, *tables}:
        if table.name in counts:
            continue
        dfs = {tok: doc_frequency(conn, table, tok) for tok in tokens}
        counts[table.name] = (row_count(conn, table), dfs)
    n = sum(counts[t.name][0] for t in CORPUS)
    idf = {tok: spec_idf(n, sum(counts[t.name][1][tok] for t in CORPUS)) for tok in tokens}
    return CorpusIdf(idf, counts)


def phrase(token: str) -> str:
    """One token as an FTS5 string (a `"` inside doubled)."""
    return '"' + token.replace('"', '""') + '"'


def token_union(arm: str, scales: list[tuple[str, float]]) -> tuple[str, dict[str, object]]:
    """`arm` (a SELECT with `{match}` for its MATCH and `{scale}` for its rescale factor) once
    per token, as one UNION ALL, with the named parameters it binds."""
    sql = "\nUNION ALL\n".join(
        arm.format(match=f":match{i}", scale=f":scale{i}") for i in range(len(scales))
    )
    args: dict[str, object] = {}
    for i, (token, scale) in enumerate(scales):
        args[f"match{i}"] = phrase(token)
        args[f"scale{i}"] = scale
    return sql, args


def ranked_by_token(
    conn: sqlite3.Connection,
    arm: str,
    total: str,
    table_scales: list[tuple[str, float]],
    params: dict[str, object],
) -> list[sqlite3.Row]:
    """`total` (reading `{arms}`) over the union of `arm` per token; nothing when no token is in
    the table."""
    if not table_scales:
        return []
    arms, args = token_union(arm, table_scales)
    return conn.execute(total.format(arms=arms), {**args, **params}).fetchall()
