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
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from processors.tokenizer import query_tokens
from streams.stores.views_read import FILE_COLUMNS, FileRow, file_row

# Reference field weights: path 3, text (content body) 1, language 1. repo_id is UNINDEXED.
PATH_WEIGHT = 3.0
BODY_WEIGHT = 1.0
LANGUAGE_WEIGHT = 1.0
MAX_K = 100
MAX_QUERY_TOKENS = 64  # a pasted paragraph still yields a bounded MATCH expression

PATH_REASON = "path-name-match"
CONTENT_REASON = "content-match"

_FILE_SELECT = ", ".join(f"f.{c.strip()}" for c in FILE_COLUMNS.split(","))
# CROSS JOIN pins the FTS MATCH as the outer loop (otherwise the planner may walk the repo's
# content rows and run one full-text query per row). Column order: repo_id, language,
# path_terms, body_terms.
_SEARCH_SQL = f"""
WITH ranked AS (
    SELECT c.path AS path,
           bm25(content_fts, 0, {LANGUAGE_WEIGHT}, {PATH_WEIGHT}, {BODY_WEIGHT}) AS rank,
           bm25(content_fts, 0, 0, 1, 0) AS path_rank,
           bm25(content_fts, 0, 0, 0, 1) AS body_rank
    FROM content_fts CROSS JOIN content c ON c.id = content_fts.rowid
    WHERE content_fts MATCH ?1 AND c.repo_id = ?2
    ORDER BY rank, c.path
    LIMIT ?3
)
SELECT ranked.path, ranked.rank, ranked.path_rank, ranked.body_rank, {_FILE_SELECT}
FROM ranked LEFT JOIN files f ON f.repo_id = ?2 AND f.path = ranked.path
ORDER BY ranked.rank, ranked.path
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


def keyword_search(conn: sqlite3.Connection, repo_id: str, query: str, k: int) -> list[KeywordHit]:
    tokens = query_tokens(query)[:MAX_QUERY_TOKENS]
    if not tokens:
        return []
    limit = max(1, min(k, MAX_K))
    hits: list[KeywordHit] = []
    for row in conn.execute(_SEARCH_SQL, (match_expression(tokens), repo_id, limit)):
        reasons = []
        if row[2] < 0:
            reasons.append(PATH_REASON)
        if row[3] < 0:
            reasons.append(CONTENT_REASON)
        file = None if row[4] is None else file_row(tuple(row)[4:])
        hits.append(KeywordHit(repo_id, row[0], -row[1], tuple(reasons), file))
    return hits
