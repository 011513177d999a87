"""The searched fields of the two full-text tables and their BM25 weights, in one place for the
SQL scorer (views/search.py), the in-memory one (views/lexical.py) and the change-log triggers.

Reference field weights: path 3, fully-qualified name 3, signature 2, text (content body) 1,
language 1; repo_id is UNINDEXED. Symbol names and signatures live in their own FTS5 table
(views/symbol_tables.py); a file's score is its content BM25 plus its symbols' BM25.
"""

from __future__ import annotations

from streams.stores.views.lexical import MirrorSpec

PATH_WEIGHT = 3.0
SYMBOL_WEIGHT = 3.0
SIGNATURE_WEIGHT = 2.0
BODY_WEIGHT = 1.0
LANGUAGE_WEIGHT = 1.0

CONTENT_FIELDS = MirrorSpec(
    fts="content_fts",
    docs="content",
    source="content_fts_source",
    columns=("language", "path_terms", "body_terms"),
    weights=(LANGUAGE_WEIGHT, PATH_WEIGHT, BODY_WEIGHT),
    flagged=("path_terms", "body_terms"),
)
SYMBOL_FIELDS = MirrorSpec(
    fts="symbol_fts",
    docs="symbol_docs",
    source="symbol_fts_source",
    columns=("symbol_terms", "signature_terms"),
    weights=(SYMBOL_WEIGHT, SIGNATURE_WEIGHT),
    flagged=("symbol_terms",),
)
PATH_FLAG, BODY_FLAG = 1, 2  # CONTENT_FIELDS' flag bits
NAME_FLAG = 1  # SYMBOL_FIELDS' flag bit
