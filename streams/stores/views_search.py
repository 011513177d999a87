"""BM25 keyword search over the content index (spec §3.4), ranked by SQLite FTS5's bm25().

FTS5's bm25 uses k1 = 1.2 and b = 0.75, as the reference does, and multiplies each column's
term frequency by that column's weight, which is the reference's "weight adds to term
frequency". Known differences from the reference's own BM25, accepted for an index that
answers in milliseconds instead of re-scoring up to 5000 records per query:
- document length is the unweighted token count of the row, and N/df/average length come from
  the whole index (every repository), not from the candidate set;
- FTS5's IDF is ln((N - df + 0.5) / (df + 0.5)) floored at 1e-6, so a term present in more
  than half the files scores near zero instead of ln(1 + ...).
Reasons come from the same statement: bm25() with every weight but one column's set to 0 is
non-zero exactly when a query token occurs in that column.

Declarations first: when the query is a name (`OrderService`, `order service`: at most four
words), files declaring a symbol of exactly that name rank above every file that only mentions
it. BM25 alone ranks a short file naming OrderService in a signature above the long file that
declares it (length normalisation); an agent asking for a name wants its definition. Their
score is their BM25 plus the best other score, so hits stay in score order.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass

from processors.tokenizer import name_spellings, query_tokens, tokenize
from streams.stores.views_read import FileRow, get_file
from streams.stores.views_symbols import matching_symbols, symbols_named

# Reference field weights: path 3, fully-qualified name 3, signature 2, text (content body) 1,
# language 1. repo_id is UNINDEXED. Symbol names and signatures live in their own FTS5 table
# (streams/stores/views_symbols.py); a file's score is its content BM25 plus its symbols' BM25
# (each table with its own N/df/average length), so a symbol hit ranks its declaring file.
PATH_WEIGHT = 3.0
SYMBOL_WEIGHT = 3.0
SIGNATURE_WEIGHT = 2.0
BODY_WEIGHT = 1.0
LANGUAGE_WEIGHT = 1.0
MAX_K = 100
MAX_QUERY_TOKENS = 64  # a pasted paragraph still yields a bounded MATCH expression
MAX_REASONS = 6
POOL_FACTOR = 3  # candidates read from each table per wanted hit, before the scores are added

PATH_REASON = "path-name-match"
CONTENT_REASON = "content-match"
SYMBOL_REASON_PREFIX = "symbol:"

# CROSS JOIN pins the FTS MATCH as the outer loop (otherwise the planner may walk the repo's
# content rows and run one full-text query per row). Column order: repo_id, language,
# path_terms, body_terms.
_CONTENT_SQL = f"""
SELECT c.path,
       bm25(content_fts, 0, {LANGUAGE_WEIGHT}, {PATH_WEIGHT}, {BODY_WEIGHT}) AS rank,
       bm25(content_fts, 0, 0, 1, 0) AS path_rank,
       bm25(content_fts, 0, 0, 0, 1) AS body_rank
FROM content_fts CROSS JOIN content c ON c.id = content_fts.rowid
WHERE content_fts MATCH ?1 AND c.repo_id = ?2
ORDER BY rank, c.path
LIMIT ?3
"""
# Column order: repo_id, symbol_terms, signature_terms.
_SYMBOL_SQL = f"""
SELECT d.path,
       bm25(symbol_fts, 0, {SYMBOL_WEIGHT}, {SIGNATURE_WEIGHT}) AS rank,
       bm25(symbol_fts, 0, 1, 0) AS name_rank
FROM symbol_fts CROSS JOIN symbol_docs d ON d.id = symbol_fts.rowid
WHERE symbol_fts MATCH ?1 AND d.repo_id = ?2
ORDER BY rank, d.path
LIMIT ?3
"""


@dataclass(frozen=True, slots=True)
class KeywordHit:
    """One ranked file. `score` is positive, higher = better; `file` is None only while the
    file's structure record has not been applied yet (content and structure travel apart)."""

    repo_id: str
    path: str
    score: float
    reasons: tuple[str, ...]
    file: FileRow | None


def match_expression(tokens: list[str]) -> str:
    """An FTS5 query matching any token; each token quoted (a `"` inside is doubled)."""
    return " OR ".join('"' + token.replace('"', '""') + '"' for token in tokens)


def declaring_files(conn: sqlite3.Connection, repo_id: str, query: str, limit: int) -> set[str]:
    """Files declaring a symbol named exactly as the query (any of its spellings), at most
    `limit` declarations read."""
    spellings = name_spellings(query)
    if not spellings:
        return set()
    words = tokenize(query)
    return {
        row.path
        for row in symbols_named(conn, repo_id, spellings, limit, limit)
        if tokenize(row.name) == words
    }


def keyword_search(conn: sqlite3.Connection, repo_id: str, query: str, k: int) -> list[KeywordHit]:
    tokens = query_tokens(query)[:MAX_QUERY_TOKENS]
    if not tokens:
        return []
    limit = max(1, min(k, MAX_K))
    pool = limit * POOL_FACTOR
    match = match_expression(tokens)
    # path -> [score, path matched, body matched, symbol name matched]
    found: dict[str, list[float | bool]] = {}
    for path, rank, path_rank, body_rank in conn.execute(_CONTENT_SQL, (match, repo_id, pool)):
        found[path] = [-rank, path_rank < 0, body_rank < 0, False]
    for path, rank, name_rank in conn.execute(_SYMBOL_SQL, (match, repo_id, pool)).fetchall():
        entry = found.setdefault(path, [0.0, False, False, False])
        entry[0] = float(entry[0]) - rank
        entry[3] = name_rank < 0
    declaring = declaring_files(conn, repo_id, query, pool)
    if declaring:
        bonus = math.nextafter(max((float(e[0]) for e in found.values()), default=0.0), math.inf)
        for path in declaring:
            entry = found.setdefault(path, [0.0, False, False, False])
            entry[0] = float(entry[0]) + bonus
            entry[3] = True
    ranked = sorted(found.items(), key=lambda item: (-float(item[1][0]), item[0]))[:limit]
    token_set = set(tokens)
    hits: list[KeywordHit] = []
    for path, (score, path_hit, body_hit, symbol_hit) in ranked:
        # fixed order (spec §1.4): path-name-match, symbol:<fqName>..., content-match; <= 6
        reasons = [PATH_REASON] if path_hit else []
        if symbol_hit:
            room = MAX_REASONS - len(reasons) - (1 if body_hit else 0)
            for fq_name in matching_symbols(conn, repo_id, path, token_set, room):
                reasons.append(SYMBOL_REASON_PREFIX + fq_name)
        if body_hit:
            reasons.append(CONTENT_REASON)
        file = get_file(conn, repo_id, path)
        hits.append(KeywordHit(repo_id, path, float(score), tuple(reasons), file))
    return hits
