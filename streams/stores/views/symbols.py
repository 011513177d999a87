"""Reads of the symbols.v1 and xrefs.v1 views (tables in views/symbol_tables.py): a file's
declarations, declarations and references by name, imports and importers, and a cache of
recently read files' declarations. query_api reaches them through SymbolViews."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from processors.symbols.languages.js_ts import module_candidates
from streams.stores.views.file_cache import FileRowsCache, PerStoreCaches
from streams.stores.views.read import files_in_folder_named, files_with_path_words
from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_decls import (
    REPO_NUMBER,
    Decl,
    decls_by_name,
    decls_of_files,
    files_declaring,
)
from streams.stores.views.symbol_tables import file_sources, source_of

MAX_LOOKUP = 2000  # rows one name's lookup may return (bounded, whatever the repository)
MAX_LOOKUP_TOTAL = 20_000  # rows one answer may read over all its names


class SymbolRow(NamedTuple):
    """One declaration. A named tuple, not a frozen dataclass: a search reads a few thousand
    of these (a C header declares thousands of names), and a frozen dataclass's `__init__`
    (one `object.__setattr__` per field) is several times slower than `_make`."""

    repo_id: str
    path: str
    fq_name: str
    name: str
    kind: str
    start_line: int
    end_line: int
    digest: str
    signature: str


@dataclass(frozen=True, slots=True)
class ReferenceRow:
    """`symbol` in `path` references `name` (resolved through an import to `qualified`)."""

    path: str
    symbol: str
    name: str
    qualified: str | None


def symbols_of_file(conn: sqlite3.Connection, repo_id: str, path: str) -> list[SymbolRow]:
    return symbols_of_files(conn, repo_id, [path]).get(path, [])


def symbols_named(
    conn: sqlite3.Connection,
    repo_id: str,
    names: Sequence[str],
    limit: int = MAX_LOOKUP,
    total: int = MAX_LOOKUP_TOTAL,
    decoded: dict[int, dict[str, list[Decl]]] | None = None,
) -> list[SymbolRow]:
    """Declarations with one of these simple names, by path then fq name: one range read of
    the names per name, each bounded on its own (a name declared everywhere cannot crowd out
    the others) and all of them by `total`. Only the files within the bound are decoded, each
    once (`decoded`: file id -> its declarations, kept by a caller that reads views that do
    not change between its calls)."""
    out: list[SymbolRow] = []
    decoded = {} if decoded is None else decoded
    for name in dict.fromkeys(names):
        bound = min(limit, total - len(out))
        found: list[SymbolRow] = []
        for file_id, path in files_declaring(conn, repo_id, name):
            if len(found) >= bound:
                break
            if file_id not in decoded:
                decoded[file_id] = decls_by_name(conn, file_id)
            found.extend(SymbolRow(repo_id, path, *d) for d in decoded[file_id].get(name, ()))
        out.extend(found[:bound])
        if len(out) >= total:
            break
    return out


def references_to(
    conn: sqlite3.Connection,
    repo_id: str,
    names: Sequence[str],
    qualified_only: Collection[str] = (),
    limit: int = MAX_LOOKUP,
    total: int = MAX_LOOKUP_TOTAL,
) -> list[ReferenceRow]:
    """Who references these simple names, in the order the names come: one range read of
    the reverse index per name, each bounded on its own, so that a name every file calls
    (`add`, `get`) cannot crowd out the rest, and all of them by `total`. For the names in
    `qualified_only` only the references an import qualified are read: the callers of a
    member's bare name say nothing about which class's member they call."""
    out: list[ReferenceRow] = []
    files: dict[int, tuple[str, list[str]]] = {}  # file id -> (path, its sources), read once
    for name in dict.fromkeys(names):
        only_qualified = " AND r.qualified != 0" if name in qualified_only else ""
        # the name's range of the table's key, read in key order and cut at the bound before
        # anything is sorted
        rows = conn.execute(
            f"""SELECT r.source, q.text FROM xref_refs r NOT INDEXED  -- its key (repo, name, ...)
                LEFT JOIN xref_names q ON q.id = r.qualified
                WHERE r.repo = (SELECT id FROM repo_numbers WHERE repo_id = ?1) AND r.name =
                    (SELECT id FROM xref_names WHERE text = ?2){only_qualified} LIMIT ?3""",
            (repo_id, name, min(limit, total - len(out))),
        ).fetchall()
        _read_files(conn, files, {source_of(r[0])[0] for r in rows})
        found = []
        for source, qualified in rows:
            file_id, index = source_of(source)
            path, sources = files.get(file_id, ("", []))
            if index < len(sources):  # else its file row is gone (never written so): skip
                found.append(ReferenceRow(path, sources[index], name, qualified or None))
        found.sort(key=lambda r: (r.path, r.symbol))
        out.extend(found)
        if len(out) >= total:
            break
    return out


def _read_files(
    conn: sqlite3.Connection, files: dict[int, tuple[str, list[str]]], wanted: set[int]
) -> None:
    """Read the path and referencing symbols of the `wanted` files `files` does not hold."""
    missing = json.dumps(sorted(wanted - files.keys()))
    for file_id, path, sources in conn.execute(
        """SELECT id, path, sources FROM xref_files
           WHERE id IN (SELECT value FROM json_each(?))""",
        (missing,),
    ):
        files[int(file_id)] = (str(path), file_sources(sources))


def imports_of_file(conn: sqlite3.Connection, repo_id: str, path: str) -> list[str]:
    rows = conn.execute(
        """SELECT n.text FROM xref_files f CROSS JOIN xref_imports i ON i.file = f.id
           CROSS JOIN xref_names n ON n.id = i.module
           WHERE f.repo_id = ? AND f.path = ? ORDER BY n.text""",
        (repo_id, path),
    )
    return [r[0] for r in rows]


def imports_starting(
    conn: sqlite3.Connection, repo_id: str, prefix: str, limit: int = MAX_LOOKUP
) -> list[tuple[str, str]]:
    """(importing file, import entry) of the entries that start with `prefix` (Go's
    `go:embed ` entries), at most `limit`: a range read of xref_names' text index, then
    this repository's importers of each name by xref_imports_by_module."""
    rows = conn.execute(
        f"""SELECT f.path, n.text FROM xref_names n
            CROSS JOIN xref_imports i INDEXED BY xref_imports_by_module
            CROSS JOIN xref_files f ON f.id = i.file
            WHERE n.text >= ? AND n.text < ? AND i.repo = {REPO_NUMBER} AND i.module = n.id
            ORDER BY n.text, f.path LIMIT ?""",
        (prefix, prefix + "\U0010ffff", repo_id, limit),
    )
    return [(r[0], r[1]) for r in rows]


def importers_of(
    conn: sqlite3.Connection, repo_id: str, modules: Sequence[str], limit: int = MAX_LOOKUP
) -> list[str]:
    """The files importing one of `modules` (import entries as the extractor wrote them:
    a TS/JS repository path without extension), each once, at most `limit`: one bounded
    range read of xref_imports_by_module per module."""
    out: dict[str, None] = {}
    for module in dict.fromkeys(modules):
        rows = conn.execute(
            # the module's importers sorted by path before the bound, as the index used to
            # hold them (a module is imported by a few thousand files at most)
            f"""SELECT f.path FROM xref_imports i INDEXED BY xref_imports_by_module
                CROSS JOIN xref_files f ON f.id = i.file
                WHERE i.repo = {REPO_NUMBER}
                    AND i.module = (SELECT id FROM xref_names WHERE text = ?)
                ORDER BY f.path LIMIT ?""",
            (repo_id, module, limit - len(out)),
        )
        out.update(dict.fromkeys(r[0] for r in rows))
        if len(out) >= limit:
            break
    return sorted(out)


def module_files(conn: sqlite3.Connection, repo_id: str, module: str) -> list[str]:
    """The indexed files a TS/JS module (a repository path without extension, as the extractor
    resolves a relative specifier) may be (js_ts.module_candidates). Point reads of the files'
    primary key."""
    return sorted(indexed_paths(conn, repo_id, module_candidates(module)))


def indexed_paths(conn: sqlite3.Connection, repo_id: str, paths: Sequence[str]) -> set[str]:
    """Which of `paths` are indexed files: point reads of the files' primary key."""
    if not paths:
        return set()
    marks = ",".join("?" * len(paths))
    rows = conn.execute(
        f"SELECT path FROM files WHERE repo_id = ? AND path IN ({marks})", (repo_id, *paths)
    )
    return {r[0] for r in rows}


def symbols_of_files(
    conn: sqlite3.Connection, repo_id: str, paths: Sequence[str]
) -> dict[str, list[SymbolRow]]:
    """path -> its declarations (start line, then fq name), for the files of `paths` that
    declare any: one read for all of them, in path order."""
    found = decls_of_files(conn, repo_id, paths)
    return {path: [SymbolRow(repo_id, path, *d) for d in found[path]] for path in sorted(found)}


# Rows the cache of declarations holds at most (~560 bytes each as SymbolRows: ~11 MiB).
CACHED_SYMBOL_ROWS = 20_000

# The declarations of recently read files, for as long as the views do not change
# (views/file_cache.py); search reads spans instead (views/symbol_spans.py).
FileSymbolsCache = FileRowsCache[SymbolRow]
_CACHES = PerStoreCaches[SymbolRow](symbols_of_files, CACHED_SYMBOL_ROWS)


def file_symbols_cache(store: ViewStore) -> FileSymbolsCache:
    """The store's cache of declarations (one per store, made on first use)."""
    return _CACHES.of(store)


class SymbolViews:
    """The symbol read API over a ViewStore (query_api holds no SQL)."""

    def __init__(self, store: ViewStore) -> None:
        self.store = store
        self.cache = file_symbols_cache(store)

    def symbols_of_file(self, repo_id: str, path: str) -> list[SymbolRow]:
        found = self.store.read(lambda c: self.cache.of_files(c, repo_id, [path]))
        return list(found.get(path, ()))

    def symbols_of_files(self, repo_id: str, paths: Sequence[str]) -> dict[str, list[SymbolRow]]:
        """path -> its declarations, for the files of `paths` that declare any (one read)."""
        found = self.store.read(lambda c: self.cache.of_files(c, repo_id, paths))
        return {path: list(rows) for path, rows in found.items()}

    def symbols_named(self, repo_id: str, names: Sequence[str]) -> list[SymbolRow]:
        return self.store.read(lambda c: symbols_named(c, repo_id, names))

    def files_in_folder_named(self, repo_id: str, folder: str, limit: int) -> list[str]:
        return self.store.read(lambda c: files_in_folder_named(c, repo_id, folder, limit))

    def files_with_path_words(self, repo_id: str, name: str, limit: int) -> list[str]:
        return self.store.read(lambda c: files_with_path_words(c, repo_id, name, limit))

    def references_to(
        self, repo_id: str, names: Sequence[str], qualified_only: Collection[str] = ()
    ) -> list[ReferenceRow]:
        return self.store.read(lambda c: references_to(c, repo_id, names, qualified_only))

    def imports_of_file(self, repo_id: str, path: str) -> list[str]:
        return self.store.read(lambda c: imports_of_file(c, repo_id, path))

    def importers_of(self, repo_id: str, modules: Sequence[str]) -> list[str]:
        return self.store.read(lambda c: importers_of(c, repo_id, modules))

    def imports_starting(self, repo_id: str, prefix: str) -> list[tuple[str, str]]:
        return self.store.read(lambda c: imports_starting(c, repo_id, prefix))

    def module_files(self, repo_id: str, module: str) -> list[str]:
        return self.store.read(lambda c: module_files(c, repo_id, module))

    def indexed_paths(self, repo_id: str, paths: Sequence[str]) -> set[str]:
        return self.store.read(lambda c: indexed_paths(c, repo_id, paths))
