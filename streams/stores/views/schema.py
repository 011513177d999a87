"""The core view tables (repos, files, content + FTS5, sink offsets) and connection setup.

Full-text index: an external-content FTS5 table whose rowid is `content.id` and whose content
is `content_fts_source`, a view of the terms the content table keeps (issue 25: an internal
copy held every file's terms a second time, uncompressed).
- The terms live once, in `content`, the long body terms zlib-packed (`pack_text`), read back
  through the `unpack_text` SQL function every connection registers (open_connection).
- Neither contentless nor internal-content: SQLite 3.40 here predates `contentless_delete`,
  and an internal copy costs the terms again. An external-content table forgets a row only by
  a 'delete' that hands it the row's exact old terms, so the AFTER DELETE trigger on `content`
  passes the stored ones (packing round-trips exactly); replacing a file, removing a
  repository or resetting its index can never leave orphaned terms.
- `tokenize='ascii'`: the terms arrive pre-tokenised by processors.tokenizer (lower-case words
  separated by spaces). The ascii tokenizer splits only on ASCII non-alphanumerics and keeps
  every non-ASCII character inside its token, so FTS5 indexes exactly our tokens (unicode61
  would re-split them by its own, older Unicode tables and fold diacritics).
- Column order puts the short columns first and weights follow it: see views/search.
Large columns (`body_terms`, `body`) come last in their tables so reading the small ones never
pulls their overflow pages. Bodies of at least PACK_MIN_CHARS characters are stored packed too.

A body's terms are kept only when they are not the tokenizer's terms of the stored body (a file
longer than its body, or a record another tokenizer made): for the rest `body_terms` is NULL
and the `body_terms_of` SQL function tokenises the body again where the terms are read (the
FTS source, its delete trigger, `read.indexed_terms`). The terms were as large as the bodies.
A path's terms are kept the same way (`path_terms`, `path_terms_of`).
A delete must hand FTS5 the terms it indexed, so a views file remembers which tokenizer derived
them (`view_meta`, terms_fingerprint) and is rebuilt from the log under another one.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from processors import tokenizer
from processors.tokenizer import tokenize
from streams.errors import StoreError
from streams.stores.views.packing import (
    DICTIONARY_DDL,
    pack_text,
    register_dictionaries,
    unpack_text,
)
from streams.stores.views.registry import Tree, ViewRegistry

# Bump when a view table changes incompatibly. The views are a projection of the log, so a
# store opening a file of another version starts a fresh one and the view sink rebuilds it
# from the log (ViewStore, streams/runtime/views_rebuild.py says how far it got).
# 2: memory entries are searchable (memory_docs, memory_fts, memory_links).
# 3: files.indexed_chars (where search stops in a file longer than the indexed limit).
# 4: content keeps the terms (packed) and content_fts reads them (external content).
# 5: xref_refs names its file by xref_files.id.
# 6: xref_refs names its referencing symbol by xref_sources.id (file id + name).
# 7: symbol_docs keeps the symbol terms (packed) and symbol_fts reads them (external content).
# 8: symbols is a rowid table naming its file by symbol_files.id, with narrow indexes;
#    xref_sources is indexed by file instead of unique by (file, symbol).
# 9: symbols and xref_refs name their repository by repo_numbers.id.
# 10: xref_imports names its file by xref_files.id and its repository by number.
# 11: xref_imports' key columns first (SQLite 3.40's integrity check misreads the other order).
# 12: content.body_terms is NULL when the terms are the body's own (body_terms_of), view_meta.
# 13: xref_refs names its name and qualified name by xref_names.id.
# 14: xref_refs is a WITHOUT ROWID table keyed (repo, name, source, qualified), 0 for an
#     unqualified reference, with no index by source (xref_files.names finds a file's
#     references); xref_imports names its module by xref_names.id.
# 15: xref_sources is gone: a reference's source is its file's id and the symbol's place in
#     xref_files.sources, the file's referencing symbols as one packed JSON list.
# 16: a file's declarations are one packed list (symbol_files.decls), found by fq name
#     (symbol_keys) and simple name (symbol_names); `symbols` is a view of them.
# 17: symbol_docs keeps a file's symbol terms only when they are not its declarations' own
#     (decl_terms_of).
# 18: content.path_terms is NULL when the terms are the path's own (path_terms_of); bodies
#     are packed with a dictionary of their language (views/packing.py).
SCHEMA_VERSION = 18
PAGE_SIZE = 16384


@cache
def terms_fingerprint() -> str:
    """Which tokenizer the views' derived terms come from: its source and the Unicode tables
    its letter classes are built from (a new Python may bring new ones)."""
    digest = hashlib.sha256(Path(tokenizer.__file__).read_bytes())
    digest.update(unicodedata.unidata_version.encode())
    return digest.hexdigest()[:32]


def body_terms(body: str, terms: str, truncated: bool) -> str | bytes | None:
    """What `content.body_terms` holds: NULL when the terms are the body's own tokens."""
    if not truncated and " ".join(tokenize(body)) == terms:
        return None
    return pack_text(terms)


def decl_terms(fields: Iterable[str]) -> str:
    """The terms of a file's declarations' names or signatures, as the symbols processor
    derives them (processors/symbols/terms.py), in one tokenize call: no token spans a
    newline. The views keep a record's terms unless they equal this."""
    return " ".join(tokenize("\n".join(fields)))


def decl_terms_of(
    stored_terms: str | bytes | None, stored_decls: str | bytes | None, field: int
) -> str:
    """A `symbol_docs` column's terms: as kept, or decl_terms of one field (1: the names, 6:
    the signatures) of the file's declarations (views/symbol_decls.py)."""
    if stored_terms is not None:
        return unpack_text(stored_terms) or ""
    decls = json.loads(unpack_text(stored_decls) or "[]")
    return decl_terms(str(d[field]) for d in decls)


def path_terms_of(stored_terms: str | None, path: str) -> str:
    """A content row's path terms: as kept, or the tokens of its path."""
    return stored_terms if stored_terms is not None else " ".join(tokenize(path))


def body_terms_of(stored_terms: str | bytes | None, stored_body: str | bytes | None) -> str:
    """A content row's terms: as kept, or the tokens of its body (`body_terms`)."""
    if stored_terms is not None:
        return unpack_text(stored_terms) or ""
    return " ".join(tokenize(unpack_text(stored_body) or ""))


VIEW_META_DDL = """CREATE TABLE IF NOT EXISTS view_meta (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID"""

CORE_DDL = (
    DICTIONARY_DDL,
    """CREATE TABLE IF NOT EXISTS repos (
        repo_id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        root TEXT,
        url TEXT,
        ref TEXT,
        registered_at REAL NOT NULL,
        last_ingested REAL,
        indexed_commit TEXT,
        registration TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS files (
        repo_id TEXT NOT NULL,
        path TEXT NOT NULL,
        digest TEXT NOT NULL,
        language TEXT NOT NULL,
        size INTEGER NOT NULL,
        line_count INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        binary INTEGER NOT NULL,
        generated INTEGER NOT NULL,
        vendored INTEGER NOT NULL,
        truncated INTEGER NOT NULL,
        decode_errors INTEGER NOT NULL,
        source_revision TEXT,
        ingested_at REAL NOT NULL,
        indexed_chars INTEGER,
        PRIMARY KEY (repo_id, path)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS content (
        id INTEGER PRIMARY KEY,
        repo_id TEXT NOT NULL,
        path TEXT NOT NULL,
        digest TEXT NOT NULL,
        language TEXT NOT NULL,
        truncated INTEGER NOT NULL,
        token_count INTEGER,
        language_terms TEXT NOT NULL,
        path_terms,  -- NULL: the path's own tokens (path_terms_of)
        body_terms,  -- NULL: the body's own tokens (body_terms_of)
        body NOT NULL,
        UNIQUE (repo_id, path)
    )""",
    """CREATE VIEW IF NOT EXISTS content_fts_source AS
        SELECT id, repo_id, language_terms AS language,
               path_terms_of(path_terms, path) AS path_terms,
               body_terms_of(body_terms, body) AS body_terms
        FROM content""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS content_fts USING fts5(
        repo_id UNINDEXED, language, path_terms, body_terms, tokenize = 'ascii',
        content = 'content_fts_source', content_rowid = 'id'
    )""",
    """CREATE TRIGGER IF NOT EXISTS content_fts_forget AFTER DELETE ON content BEGIN
        INSERT INTO content_fts (content_fts, rowid, repo_id, language, path_terms, body_terms)
        VALUES ('delete', old.id, old.repo_id, old.language_terms,
                path_terms_of(old.path_terms, old.path), body_terms_of(old.body_terms, old.body));
    END""",
    """CREATE TABLE IF NOT EXISTS sink_offsets (
        "group" TEXT NOT NULL,
        topic TEXT NOT NULL,
        partition INTEGER NOT NULL,
        next_offset INTEGER NOT NULL,
        PRIMARY KEY ("group", topic, partition)
    ) WITHOUT ROWID""",
)

# Swept per repository. Order = the order reset_repo reports counts in.
CORE_TREES = (
    Tree("files", "DELETE FROM files WHERE repo_id = ?"),
    Tree("content", "DELETE FROM content WHERE repo_id = ?"),  # the trigger clears content_fts
)


def register_core_schema(registry: ViewRegistry) -> None:
    registry.add_schema(*CORE_DDL)
    for tree in CORE_TREES:
        registry.add_tree(tree)


class SchemaMismatch(StoreError):
    """The views file was written by a build with another SCHEMA_VERSION (or derived its terms
    with another tokenizer: `found` is then this version)."""

    def __init__(self, path: str, found: int, why: str = "") -> None:
        super().__init__(
            why
            or f"the views at {path} have schema version {found}, this build uses {SCHEMA_VERSION}"
        )
        self.found = found


def check_schema_version(conn: sqlite3.Connection, path: str) -> None:
    """Stamp a new database with SCHEMA_VERSION and terms_fingerprint; SchemaMismatch for one
    of another version or tokenizer. Inside the caller's transaction."""
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found == 0:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    elif found != SCHEMA_VERSION:
        raise SchemaMismatch(path, found)
    conn.execute(VIEW_META_DDL)
    row = conn.execute("SELECT value FROM view_meta WHERE name = 'terms'").fetchone()
    if row is None:
        conn.execute("INSERT INTO view_meta VALUES ('terms', ?)", (terms_fingerprint(),))
    elif row[0] != terms_fingerprint():
        why = f"the views at {path} hold terms another tokenizer derived"
        raise SchemaMismatch(path, found, why)


# SQLite's page cache per connection, in MiB. It is the largest part of a server's memory that
# a setting moves: the views writer and one reader per worker thread (six on two cores) each
# fill theirs up to the cap and keep it. Searches read their rows through the in-memory
# postings and primary keys, so a small reader cache costs them little; the OS page cache
# still holds the file (python -m tests.bench.search_latency, docs/semantic.md).
WRITER_CACHE_MIB = 16
READER_CACHE_MIB = 4


def open_connection(path: str | Path, cache_mib: int = WRITER_CACHE_MIB) -> sqlite3.Connection:
    """One connection in autocommit mode: transactions are explicit (BEGIN IMMEDIATE)."""
    conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    conn.row_factory = sqlite3.Row
    # A new file's page size (no effect on an existing one): rows of a few KiB (packed bodies,
    # a file's declaration list) left a fifth of 4 KiB pages unused, and B-tree pages filled
    # in key order by random inserts waste less of a larger page. Set before WAL fixes it.
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode = WAL")
    # NORMAL in WAL mode loses nothing on a process crash (kill -9), only on power loss, and
    # skips an fsync per commit; the log can rebuild the views in that rarer case.
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute(f"PRAGMA cache_size = -{cache_mib * 1024}")  # page cache, KiB
    conn.execute("PRAGMA busy_timeout = 5000")
    # content_fts reads its packed terms through this (and its delete trigger passes them)
    conn.create_function("unpack_text", 1, unpack_text, deterministic=True)
    conn.create_function("body_terms_of", 2, body_terms_of, deterministic=True)
    conn.create_function("path_terms_of", 2, path_terms_of, deterministic=True)
    conn.create_function("decl_terms_of", 3, decl_terms_of, deterministic=True)
    register_dictionaries(conn, str(path))  # the bodies' (views/packing.py)
    return conn
