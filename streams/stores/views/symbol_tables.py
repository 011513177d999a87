"""Views of symbols.v1 and xrefs.v1: declared symbols, imports and the reverse reference index.

- `symbol_files`, `symbol_keys`, `symbol_names`: each file's declarations as one packed list,
  found by fqName and by simple name (views/symbol_decls.py).
- `xref_refs`: the reverse index. Keyed by the referenced simple name (a WITHOUT ROWID table
  of four integers), so "who references Name" is a bounded range read, never a scan; no
  index by source: a file's references are found again by the names it references (kept
  with the file) within the range of its source ids. A reference names its referencing
  symbol by a source id: its file's `xref_files.id` and the symbol's place in that file's
  packed list of referencing symbols (`source_id`):
  paths and qualified names are ~100 bytes each and a Java repository holds ~60 references
  per file and ~5 per symbol, so writing them into every row (and the path into the by-file
  index) made this table half of spring-framework's views.
- `xref_imports`: the modules each file imports, naming the file by `xref_files.id` (made for
  a file with references or imports), the module by `xref_names.id` and its repository by
  number: the ~120-byte path of a Java file and the ~40-byte module were in every import and
  again in the by-module index (spring-framework: ~7 k distinct modules for ~90 k imports).
- `symbol_docs` + `symbol_fts`: one FTS5 row per file with the terms of its symbols' names
  and signatures, as the symbols processor derived them (the record's `symbol_terms` and
  `signature_terms`), searched next to `content_fts` (views/search adds the two BM25 scores).
  A table of its own, not two more columns of `content_fts`: symbols land after content
  (parsing is slower than tokenising), and updating an FTS5 row re-indexes its whole body,
  which made a cold index much slower.
Both families are replace-per-file: a record deletes the file's rows and inserts its own, a
tombstone only deletes.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Sequence

from schemas import topics
from schemas.events import split_file_key
from schemas.symbols import SymbolsRecord, XrefsRecord
from streams.errors import StoreError
from streams.stores.views.packing import body_packer, pack_text, unpack_text
from streams.stores.views.registry import Item, Tree, ViewRegistry
from streams.stores.views.schema import decl_terms
from streams.stores.views.symbol_decls import (
    DECLS_DDL,
    REPO_NUMBER,
    Decl,
    decl_rows,
    decls_text,
    forget_decls,
    insert_decls,
    insert_keys,
)

log = logging.getLogger(__name__)
DECLS = "decls "  # before a language: the dictionary of its declaration lists, not its bodies

SYMBOLS_DDL = (
    """CREATE TABLE IF NOT EXISTS repo_numbers (
        id INTEGER PRIMARY KEY,
        repo_id TEXT NOT NULL UNIQUE
    )""",
    # a rowid table with two narrow indexes, not a WITHOUT ROWID table keyed by all five
    # columns: a record's references are unique already (the processor dedupes them and the
    # file's old rows go first), and two wide B-tree inserts per reference cost more CPU and
    # bytes than the narrow indexes (docs/performance-log.md)
    # `names`: the distinct xref_names ids the file's references name (pack_ids), which is
    # how its references are found again to be deleted (see _forget_xrefs); `sources`: its
    # referencing symbols, a packed JSON list (pack_text) that source ids index (source_id)
    """CREATE TABLE IF NOT EXISTS xref_files (
        id INTEGER PRIMARY KEY,
        repo_id TEXT NOT NULL,
        path TEXT NOT NULL,
        names BLOB,
        sources,
        UNIQUE (repo_id, path)
    )""",
    # the names, qualified names and modules references and imports use, each once: ~700 k
    # references on spring-framework name ~33 k distinct names and ~9 k qualified ones
    """CREATE TABLE IF NOT EXISTS xref_names (
        id INTEGER PRIMARY KEY,
        text TEXT NOT NULL UNIQUE
    )""",
    # keyed by what "who references Name" reads, so the table is its by-name index (a rowid
    # table kept the same ids a second time in an index by name), and with no index by
    # source: a file's references are deleted by its names (xref_files.names) and the range
    # of its source ids, each a seek of this key
    """CREATE TABLE IF NOT EXISTS xref_refs (
        repo INTEGER NOT NULL,  -- repo_numbers.id
        name INTEGER NOT NULL,  -- xref_names.id
        source INTEGER NOT NULL,  -- source_id(file, index in xref_files.sources)
        qualified INTEGER NOT NULL,  -- xref_names.id; 0 when the reference was not qualified
        PRIMARY KEY (repo, name, source, qualified)
    ) WITHOUT ROWID""",
    # the terms are kept here (packed when long) only when they are not the file's
    # declarations' own (NULL: decl_terms_of derives them from symbol_files.decls, as the
    # symbols processor did), and symbol_fts reads them through symbol_fts_source: an
    # external-content table, like content_fts (views/schema.py). The delete trigger reads
    # the file's declarations, so a file's symbol_docs row goes before its symbol_files row.
    """CREATE TABLE IF NOT EXISTS symbol_docs (
        id INTEGER PRIMARY KEY,
        repo_id TEXT NOT NULL,
        path TEXT NOT NULL,
        symbol_terms,  -- NULL: decl_terms_of(NULL, decls, 1)
        signature_terms,  -- NULL: decl_terms_of(NULL, decls, 6)
        UNIQUE (repo_id, path)
    )""",
    """CREATE VIEW IF NOT EXISTS symbol_fts_source AS
        SELECT d.id AS id, d.repo_id AS repo_id,
               decl_terms_of(d.symbol_terms, f.decls, 1) AS symbol_terms,
               decl_terms_of(d.signature_terms, f.decls, 6) AS signature_terms
        FROM symbol_docs d LEFT JOIN symbol_files f ON f.repo_id = d.repo_id AND f.path = d.path""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS symbol_fts USING fts5(
        repo_id UNINDEXED, symbol_terms, signature_terms, tokenize = 'ascii',
        content = 'symbol_fts_source', content_rowid = 'id'
    )""",
    """CREATE TRIGGER IF NOT EXISTS symbol_fts_forget AFTER DELETE ON symbol_docs BEGIN
        INSERT INTO symbol_fts (symbol_fts, rowid, repo_id, symbol_terms, signature_terms)
        VALUES ('delete', old.id, old.repo_id,
                decl_terms_of(old.symbol_terms, (SELECT decls FROM symbol_files
                    WHERE repo_id = old.repo_id AND path = old.path), 1),
                decl_terms_of(old.signature_terms, (SELECT decls FROM symbol_files
                    WHERE repo_id = old.repo_id AND path = old.path), 6));
    END""",
    # the key's columns first: SQLite 3.40's integrity check reports a NOT NULL column that
    # sits between a WITHOUT ROWID table's key columns as NULL (a false report that would
    # have every start take the views for damaged and rebuild them)
    """CREATE TABLE IF NOT EXISTS xref_imports (
        file INTEGER NOT NULL,  -- xref_files.id
        module INTEGER NOT NULL,  -- xref_names.id
        repo INTEGER NOT NULL,  -- repo_numbers.id
        PRIMARY KEY (file, module)
    ) WITHOUT ROWID""",
    # who imports a module (dependents: a CommonJS `require` whose uses name nothing)
    "CREATE INDEX IF NOT EXISTS xref_imports_by_module ON xref_imports (repo, module)",
)

SYMBOL_TREES = (
    Tree("symbol_docs", "DELETE FROM symbol_docs WHERE repo_id = ?"),  # trigger: symbol_fts
    Tree("symbols", f"DELETE FROM symbol_keys WHERE repo = {REPO_NUMBER}"),
    Tree("symbol_names", f"DELETE FROM symbol_names WHERE repo = {REPO_NUMBER}"),
    Tree("symbol_files", "DELETE FROM symbol_files WHERE repo_id = ?"),
    Tree("xref_refs", f"DELETE FROM xref_refs WHERE repo = {REPO_NUMBER}"),
    Tree("xref_files", "DELETE FROM xref_files WHERE repo_id = ?"),
    Tree("xref_imports", f"DELETE FROM xref_imports WHERE repo = {REPO_NUMBER}"),
)


def _last_per_file(items: Sequence[Item], topic: str) -> dict[tuple[str, str], object | None]:
    last: dict[tuple[str, str], object | None] = {}
    for key, value in items:
        if key is None:
            raise StoreError(f"{topic}: a record without a key cannot be applied")
        last[split_file_key(key)] = value
    return last


def apply_symbols(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    topic = topics.SYMBOLS.name
    last = _last_per_file(items, topic)
    # the docs first: their delete trigger reads the old declarations
    conn.executemany("DELETE FROM symbol_docs WHERE repo_id = ? AND path = ?", list(last))
    forget_decls(conn, list(last))
    docs: list[tuple[str, str, str | bytes | None, str | bytes | None]] = []
    fts: list[tuple[str, str, str, str]] = []  # the record's own terms (processors/symbols)
    keys: list[tuple[int, str, int]] = []
    names: list[tuple[int, str, int]] = []
    numbers: dict[str, int] = {}
    files = []
    for (repo_id, path), value in last.items():
        if value is not None and not isinstance(value, SymbolsRecord):
            raise StoreError(f"{topic}: expected SymbolsRecord, got {type(value).__name__}")
        if value is not None:
            rows = decl_rows(value.symbols)
            files.append((repo_id, path, value, rows, decls_text(rows)))
    # a file's list packed with a dictionary of its language's lists (views/packing.py)
    pack = body_packer(conn, [(DECLS + v.language, text) for _, _, v, _, text in files])
    for repo_id, path, value, rows, text in files:
        if rows:
            if repo_id not in numbers:
                numbers[repo_id] = repo_number(conn, repo_id)
            packed = pack(DECLS + value.language, text)
            file_keys, file_names = insert_decls(
                conn, numbers[repo_id], repo_id, path, rows, packed
            )
            keys += file_keys
            names += file_names
        if value.symbol_terms or value.signature_terms:  # else the file needs no row
            words, sigs = value.symbol_terms, value.signature_terms
            fts.append((words, sigs, repo_id, path))
            docs.append((repo_id, path, _kept(words, rows, 1), _kept(sigs, rows, 6)))
    insert_keys(conn, keys, names)
    conn.executemany(
        "INSERT INTO symbol_docs (repo_id, path, symbol_terms, signature_terms) VALUES (?,?,?,?)",
        docs,
    )
    conn.executemany(
        """INSERT INTO symbol_fts (rowid, repo_id, symbol_terms, signature_terms)
           SELECT id, repo_id, ?1, ?2 FROM symbol_docs WHERE repo_id = ?3 AND path = ?4""",
        fts,
    )


def _kept(terms: str, rows: Sequence[Decl], field: int) -> str | bytes | None:
    """What a symbol_docs column holds: NULL when the terms are those of the declarations'
    `field` (schema.decl_terms_of), else the terms (packed when long)."""
    if rows and decl_terms(str(r[field]) for r in rows) == terms:
        return None
    return pack_text(terms)


def repo_number(conn: sqlite3.Connection, repo_id: str) -> int:
    """The number `symbols` and `xref_refs` name `repo_id` by, made on first use."""
    found = conn.execute("SELECT id FROM repo_numbers WHERE repo_id = ?", (repo_id,)).fetchone()
    if found is not None:
        return int(found[0])
    made = conn.execute("INSERT INTO repo_numbers (repo_id) VALUES (?)", (repo_id,)).lastrowid
    assert made is not None
    return made


# A reference's source (its referencing symbol) is the file's id and the symbol's index in the
# file's `sources` list: the symbols' fully-qualified names repeat their package and class, so
# a file's list packs ~5x, and a file's sources are one range of ids by construction.
SOURCE_BITS = 13  # a file keeps at most MAX_REFERENCES (5,000) references; ids stay 4 bytes


def source_id(file_id: int, index: int) -> int:
    return file_id << SOURCE_BITS | index


def source_of(source: int) -> tuple[int, int]:
    """(file id, index in its sources) of a source id."""
    return source >> SOURCE_BITS, source & ((1 << SOURCE_BITS) - 1)


def _xref_ids(
    conn: sqlite3.Connection, files: list[tuple[str, str, XrefsRecord]]
) -> tuple[list[int], list[int]]:
    """The id of each file (made here: its old one went with its old references), in order,
    and the source id of each of its references, in record order."""
    file_ids: list[int] = []
    sources: list[int] = []
    for repo_id, path, value in files:
        symbols = list(dict.fromkeys(symbol for symbol, _, _ in value.references))
        if len(symbols) >> SOURCE_BITS:
            raise StoreError(f"{repo_id}/{path}: {len(symbols)} referencing symbols, too many")
        packed = pack_text(json.dumps(symbols, ensure_ascii=False)) if symbols else None
        file_id = conn.execute(
            "INSERT INTO xref_files (repo_id, path, sources) VALUES (?, ?, ?)",
            (repo_id, path, packed),
        ).lastrowid
        assert file_id is not None
        file_ids.append(file_id)
        index = {symbol: source_id(file_id, n) for n, symbol in enumerate(symbols)}
        sources.extend(index[symbol] for symbol, _, _ in value.references)
    return file_ids, sources


def file_sources(stored: str | bytes | None) -> list[str]:
    """A file's referencing symbols from what `xref_files.sources` holds."""
    return list(json.loads(unpack_text(stored) or "[]"))


def name_ids(conn: sqlite3.Connection, texts: Sequence[str | None]) -> dict[str, int]:
    """The xref_names id of each of these names (made when new; None and '' have none)."""
    wanted = json.dumps([t for t in dict.fromkeys(texts) if t])
    conn.execute(
        "INSERT OR IGNORE INTO xref_names (text) SELECT value FROM json_each(?)", (wanted,)
    )
    rows = conn.execute(
        "SELECT text, id FROM xref_names WHERE text IN (SELECT value FROM json_each(?))",
        (wanted,),
    )
    return {str(text): int(id_) for text, id_ in rows}


def pack_ids(ids: Iterable[int]) -> bytes:
    """Distinct non-negative integers, sorted, as LEB128 varints of their differences (a
    Java file's ~40 name ids in ~80 bytes)."""
    out, last = bytearray(), 0
    for value in sorted(set(ids)):
        delta, last = value - last, value
        while delta >= 0x80:
            out.append(delta & 0x7F | 0x80)
            delta >>= 7
        out.append(delta)
    return bytes(out)


def unpack_ids(packed: bytes) -> list[int]:
    out, value, shift, last = [], 0, 0, 0
    for byte in packed:
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            last += value
            out.append(last)
            value = shift = 0
    return out


def _forget_xrefs(conn: sqlite3.Connection, files: list[tuple[str, str]]) -> None:
    """Every reference, import and file row of these files. A file's references are the rows
    of its names whose source is in its range of source ids: each name is a seek and a short
    range of the key."""
    keys: list[tuple[int, int, int, int]] = []
    for repo_id, path in files:
        found = conn.execute(
            """SELECT f.id, f.names, (SELECT id FROM repo_numbers WHERE repo_id = f.repo_id)
               FROM xref_files f WHERE f.repo_id = ? AND f.path = ?""",
            (repo_id, path),
        ).fetchone()
        if found is not None and found[1] is not None:
            file_id, names, repo = found
            low, high = source_id(file_id, 0), source_id(file_id + 1, 0) - 1
            keys.extend((repo, name, low, high) for name in unpack_ids(names))
    conn.executemany(
        "DELETE FROM xref_refs WHERE repo = ? AND name = ? AND source BETWEEN ? AND ?", keys
    )
    conn.executemany(
        """DELETE FROM xref_imports WHERE file =
               (SELECT id FROM xref_files WHERE repo_id = ? AND path = ?)""",
        files,
    )
    conn.executemany("DELETE FROM xref_files WHERE repo_id = ? AND path = ?", files)


def _xref_records(
    last: dict[tuple[str, str], object | None], topic: str
) -> list[tuple[str, str, XrefsRecord]]:
    """The batch's surviving records of files with references or imports (a record that
    dropped references past the bound is logged)."""
    records: list[tuple[str, str, XrefsRecord]] = []
    for (repo_id, path), value in last.items():
        if value is None:
            continue
        if not isinstance(value, XrefsRecord):
            raise StoreError(f"{topic}: expected XrefsRecord, got {type(value).__name__}")
        if value.references or value.imports:
            records.append((repo_id, path, value))
        if value.references_dropped:
            log.warning(
                "xrefs: %s/%s references %d more distinct names than the %d kept; the reverse"
                " index (related, changed) does not know those",
                repo_id,
                path,
                value.references_dropped,
                len(value.references),
            )
    return records


def apply_xrefs(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    topic = topics.XREFS.name
    last = _last_per_file(items, topic)
    _forget_xrefs(conn, list(last))
    records = _xref_records(last, topic)
    file_ids, source_ids = _xref_ids(conn, records)
    sources = iter(source_ids)
    numbers = {repo_id: repo_number(conn, repo_id) for repo_id, _, _ in records}
    named = name_ids(conn, [t for _, _, v in records for _, n, q in v.references for t in (n, q)])
    refs = [
        (numbers[repo_id], named[name], next(sources), named.get(qualified or "", 0))
        for repo_id, _, value in records
        for _, name, qualified in value.references
    ]
    # a record's references are unique (the processor dedupes them), so IGNORE drops nothing
    conn.executemany("INSERT OR IGNORE INTO xref_refs VALUES (?,?,?,?)", refs)
    conn.executemany(
        "UPDATE xref_files SET names = ? WHERE id = ?",
        [
            (pack_ids(named[name] for _, name, _ in value.references), file_id)
            for file_id, (_, _, value) in zip(file_ids, records, strict=True)
            if value.references
        ],
    )
    modules = name_ids(conn, [m for _, _, value in records for m in value.imports])
    imports = [
        (file_id, modules[module], numbers[repo_id])
        for file_id, (repo_id, _, value) in zip(file_ids, records, strict=True)
        for module in value.imports
        if module  # an empty module names nothing an importer could be found by
    ]
    conn.executemany("INSERT OR IGNORE INTO xref_imports VALUES (?,?,?)", imports)


def register_symbol_views(registry: ViewRegistry) -> None:
    registry.add_schema(*DECLS_DDL, *SYMBOLS_DDL)
    for tree in SYMBOL_TREES:
        registry.add_tree(tree)
    registry.add_topic(topics.SYMBOLS.name, apply_symbols)
    registry.add_topic(topics.XREFS.name, apply_xrefs)
