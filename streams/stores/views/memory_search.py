"""Memory in search: a BM25 index over live memory entries and the reverse index of their links.

- `memory_docs` + `memory_fts`: one FTS5 row per entry (rowid = memory_docs.id, since `memory`
  is keyed by text). Columns carry the reference's field weights (spec §3.4): id and kind 1,
  topic 2, tags 2, title 3, body (plus author/provenance, weight 1 here: the words an agent
  typed are what it will search for).
- `memory_links`: (target key, memory key) for every link, so "which memory talks about this
  file or symbol" is a point read when a search hit or a bundle entry is built.
Both are rewritten whenever memory.v1 replaces an entry; a trigger on `memory` forgets them when
an entry row goes (tombstone, repository removal), so they never outlive their entry. Expiry is
evaluated at read time against the caller's clock, like every other memory read.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from processors.tokenizer import query_tokens, tokenize
from schemas.memory import MemoryEntry, MemoryTerms
from streams.stores.views.bm25 import MEMORY_FTS, corpus_idf, doc_frequency, ranked_by_token
from streams.stores.views.read import prefix_successor

MAX_QUERY_TOKENS = 64
MAX_REASONS = 6
KEY_WEIGHT, TOPIC_WEIGHT, TAG_WEIGHT, TITLE_WEIGHT, BODY_WEIGHT = 1.0, 2.0, 2.0, 3.0, 1.0

MEMORY_SEARCH_DDL = (
    """CREATE TABLE IF NOT EXISTS memory_docs (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        repo_id TEXT NOT NULL
    )""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(
        repo_id UNINDEXED, key_terms, topic_terms, tag_terms, title_terms, body_terms,
        tokenize = 'ascii'
    )""",
    """CREATE TRIGGER IF NOT EXISTS memory_fts_forget AFTER DELETE ON memory_docs BEGIN
        DELETE FROM memory_fts WHERE rowid = old.id;
    END""",
    """CREATE TABLE IF NOT EXISTS memory_links (
        target TEXT NOT NULL,
        key TEXT NOT NULL,
        repo_id TEXT NOT NULL,
        PRIMARY KEY (target, key)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS memory_links_by_key ON memory_links (key)",
    """CREATE TRIGGER IF NOT EXISTS memory_search_forget AFTER DELETE ON memory BEGIN
        DELETE FROM memory_docs WHERE key = old.key;
        DELETE FROM memory_links WHERE key = old.key;
    END""",
)

# One SELECT per query token, rescaled to the corpus idf that file search uses (views/bm25),
# summed per entry; expired entries are dropped before the cut.
_SEARCH_ARM = f"""
SELECT d.key AS key,
       bm25(memory_fts, 0, {KEY_WEIGHT}, {TOPIC_WEIGHT}, {TAG_WEIGHT}, {TITLE_WEIGHT},
            {BODY_WEIGHT}) * {{scale}} AS rank,
       bm25(memory_fts, 0, 1, 0, 0, 0, 0) AS key_rank,
       bm25(memory_fts, 0, 0, 1, 0, 0, 0) AS topic_rank,
       bm25(memory_fts, 0, 0, 0, 0, 1, 1) AS text_rank
FROM memory_fts CROSS JOIN memory_docs d ON d.id = memory_fts.rowid
WHERE memory_fts MATCH {{match}} AND d.repo_id = :repo
"""
_SEARCH_SUM = """
WITH hits AS MATERIALIZED ({arms}),
totals AS (
    SELECT key, sum(rank) AS score, min(key_rank) AS key_rank, min(topic_rank) AS topic_rank,
           min(text_rank) AS text_rank
    FROM hits GROUP BY key
)
SELECT t.key, m.entry, t.score, t.key_rank, t.topic_rank, t.text_rank
FROM totals t JOIN memory m ON m.key = t.key
WHERE m.expires_at IS NULL OR m.expires_at > :now
ORDER BY t.score, t.key
LIMIT :pool
"""


@dataclass(frozen=True, slots=True)
class MemoryHit:
    """One ranked live entry; `score` is positive, higher = better."""

    entry: MemoryEntry
    score: float
    reasons: tuple[str, ...]


def index_entry(conn: sqlite3.Connection, key: str, entry: MemoryEntry | None) -> None:
    """Replace the search rows of one entry (None: just forget them)."""
    conn.execute("DELETE FROM memory_docs WHERE key = ?", (key,))
    conn.execute("DELETE FROM memory_links WHERE key = ?", (key,))
    if entry is None:
        return
    cursor = conn.execute(
        "INSERT INTO memory_docs (key, repo_id) VALUES (?, ?)", (key, entry.repo_id)
    )
    # the terms the memory processor derived; an entry an older build wrote without them is
    # found by key until the runtime's start re-derives it (MemoryProcessor.migrations)
    terms = entry.search_terms or MemoryTerms()
    conn.execute(
        """INSERT INTO memory_fts (rowid, repo_id, key_terms, topic_terms, tag_terms,
               title_terms, body_terms) VALUES (?, ?, ?, ?, ?, ?, ?)""",
        (
            cursor.lastrowid,
            entry.repo_id,
            terms.key,
            terms.topic,
            terms.tags,
            terms.title,
            terms.body,
        ),
    )
    targets = {t for ts in entry.links.values() for t in ts}
    conn.executemany(
        "INSERT OR IGNORE INTO memory_links (target, key, repo_id) VALUES (?, ?, ?)",
        [(target, key, entry.repo_id) for target in sorted(targets)],
    )


def search_memory(
    conn: sqlite3.Connection, repo_id: str, query: str, k: int, now: float
) -> list[MemoryHit]:
    """Live entries of one repository ranked by BM25 (the corpus idf of code and memory
    together, so their scores compare with files'), with the reference's reasons in their
    fixed order: tag:<tag> per matched tag, topic-match, content-match, key-match."""
    tokens = query_tokens(query)[:MAX_QUERY_TOKENS]
    if not tokens or k < 1:
        return []
    if not any(doc_frequency(conn, MEMORY_FTS, token) for token in tokens):
        return []  # no entry holds a query word: skip the corpus counts over every file
    scales = corpus_idf(conn, tokens, (MEMORY_FTS,)).scales(MEMORY_FTS)
    params: dict[str, object] = {"repo": repo_id, "now": float(now), "pool": k}
    wanted = set(tokens)
    hits: list[MemoryHit] = []
    for _, raw, rank, key_rank, topic_rank, text_rank in ranked_by_token(
        conn, _SEARCH_ARM, _SEARCH_SUM, scales, params
    ):
        entry = MemoryEntry.model_validate_json(raw)
        reasons = [f"tag:{tag}" for tag in sorted(entry.tags) if wanted & set(tokenize(tag))]
        reasons = reasons[: MAX_REASONS - 3]
        if topic_rank < 0:
            reasons.append("topic-match")
        if text_rank < 0:
            reasons.append("content-match")
        if key_rank < 0:
            reasons.append("key-match")
        hits.append(MemoryHit(entry, -float(rank), tuple(reasons[:MAX_REASONS])))
    return hits


def linked_memory(
    conn: sqlite3.Connection,
    repo_id: str,
    targets: list[str],
    now: float,
    limit: int,
    *,
    file_path: str | None = None,
) -> list[MemoryEntry]:
    """Live entries of `repo_id` linking to any of `targets` (and, with `file_path`, to any
    symbol that file declares), in key order, at most `limit`."""
    if limit < 1 or (not targets and file_path is None):
        return []
    marks = ",".join("?" for _ in targets) or "NULL"
    symbol_arm = ""
    args: list[object] = [*targets]
    if file_path is not None and _links_a_symbol(conn, repo_id):
        symbol_arm = (
            " OR l.target IN (SELECT 'repo/' || f.repo_id || '/symbol/' || s.fq_name "
            "FROM symbol_files f JOIN symbols s ON s.file = f.id"
            " WHERE f.repo_id = ? AND f.path = ?)"
        )
        args += [repo_id, file_path]
    sql = (
        "SELECT DISTINCT m.key, m.entry FROM memory_links l JOIN memory m ON m.key = l.key "
        f"WHERE (l.target IN ({marks}){symbol_arm}) AND l.repo_id = ? "
        "AND (m.expires_at IS NULL OR m.expires_at > ?) ORDER BY m.key LIMIT ?"
    )
    rows = conn.execute(sql, (*args, repo_id, float(now), limit)).fetchall()
    return [MemoryEntry.model_validate_json(r[1]) for r in rows]


def _links_a_symbol(conn: sqlite3.Connection, repo_id: str) -> bool:
    """Whether any memory entry links to a symbol of `repo_id`: one probe of the links' key.
    Without one, a file's symbols need not be listed as targets (every declaration of a C
    header, for each search hit in it)."""
    prefix = f"repo/{repo_id}/symbol/"
    upper = prefix_successor(prefix)
    assert upper is not None  # the prefix ends in "/"
    row = conn.execute(
        "SELECT 1 FROM memory_links WHERE target >= ? AND target < ? LIMIT 1", (prefix, upper)
    ).fetchone()
    return row is not None
