"""Pages of the structural trees for `repocontext_scan` (spec §1.4): Symbols and Packages,
and the per-key reads of the same records for recall and neighbors (one shape for both).

- Symbols: one row per fully-qualified name in ascending order (the agent-facing key is
  `repo/{repoId}/symbol/{fqName}`, so key order is name order). A name declared in several
  files is listed once, from its first file by path (a generated one after the others), as a
  per-key read (recall) resolves it.
- Packages: every directory that holds an indexed file, directly or below, in ascending path
  order (`repo/{repoId}/pkg/{path}`), with how many files it holds directly. They are derived
  from the files view on each call, as the reference keeps no package record of its own here.
Both page after the last key returned (exclusive), so a continuation token is just that key.
"""

from __future__ import annotations

import bisect
import sqlite3
from dataclasses import dataclass

from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_decls import (
    GENERATED_JOIN,
    GENERATED_LAST,
    REPO_NUMBER,
    Decl,
    first_declaration,
    unpack_decls,
)

# the declarations in name order are symbol_keys' own key (views/symbol_decls.py)
SCAN_DDL: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SymbolEntry:
    fq_name: str
    path: str
    kind: str
    signature: str
    start_line: int
    end_line: int
    digest: str


@dataclass(frozen=True, slots=True)
class PackageEntry:
    path: str
    file_count: int  # files directly in this directory


def symbols_page(
    conn: sqlite3.Connection, repo_id: str, after: str | None, limit: int
) -> list[SymbolEntry]:
    rows = conn.execute(
        # the first file by path declaring each name, a generated one after the others, as
        # first_declaration reads a key (SQLite's min() supplies f.id)
        f"""SELECT k.fq_name, min({GENERATED_LAST} || f.path), f.id
           FROM symbol_keys k CROSS JOIN symbol_files f ON f.id = k.file
           {GENERATED_JOIN}
           WHERE k.repo = {REPO_NUMBER} AND k.fq_name > ?
           GROUP BY k.fq_name ORDER BY k.fq_name LIMIT ?""",
        (repo_id, repo_id, after if after is not None else "", limit),
    ).fetchall()
    decls: dict[int, dict[str, Decl]] = {}  # a class's members share their file: decode once
    out: list[SymbolEntry] = []
    for fq_name, ordered_path, file_id in rows:
        path = str(ordered_path)[1:]  # the generated flag's one digit first
        if file_id not in decls:
            (stored,) = conn.execute(
                "SELECT decls FROM symbol_files WHERE id = ?", (file_id,)
            ).fetchone()
            decls[file_id] = {d[0]: d for d in unpack_decls(stored)}
        found = decls[file_id].get(fq_name)
        if found is not None:
            out.append(_entry(str(path), found))
    return out


def _entry(path: str, d: Decl) -> SymbolEntry:
    return SymbolEntry(d[0], path, d[2], d[6], d[3], d[4], d[5])


def packages_page(
    conn: sqlite3.Connection, repo_id: str, after: str | None, limit: int
) -> list[PackageEntry]:
    direct: dict[str, int] = {}
    for (path,) in conn.execute("SELECT path FROM files WHERE repo_id = ?", (repo_id,)):
        parts = str(path).split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            direct.setdefault("/".join(parts[:depth]), 0)
        if parts:
            direct["/".join(parts)] += 1
    ordered = sorted(direct)
    start = bisect.bisect_right(ordered, after) if after is not None else 0
    return [PackageEntry(p, direct[p]) for p in ordered[start : start + limit]]


def symbol_entry(conn: sqlite3.Connection, repo_id: str, fq_name: str) -> SymbolEntry | None:
    """The per-key read of `repo/{repoId}/symbol/{fqName}`: the declaration scan lists (the
    first file by path)."""
    found = first_declaration(conn, repo_id, fq_name)
    return None if found is None else _entry(*found)


def package_entry(conn: sqlite3.Connection, repo_id: str, path: str) -> PackageEntry | None:
    """The per-key read of `repo/{repoId}/pkg/{path}`: a directory holding an indexed file,
    directly or below, with its direct file count (as scan lists it)."""
    low, high = f"{path}/", f"{path}0"  # '0' follows '/': every path under the directory
    bounds = "repo_id = ? AND path >= ? AND path < ?"
    if (
        conn.execute(f"SELECT 1 FROM files WHERE {bounds} LIMIT 1", (repo_id, low, high)).fetchone()
        is None
    ):
        return None
    (direct,) = conn.execute(
        f"SELECT count(*) FROM files WHERE {bounds} AND instr(substr(path, ?), '/') = 0",
        (repo_id, low, high, len(low) + 1),
    ).fetchone()
    return PackageEntry(path, int(direct))


class ScanViews:
    """The read API behind scan's structural scopes."""

    def __init__(self, store: ViewStore) -> None:
        self.store = store

    def symbols(self, repo_id: str, after: str | None, limit: int) -> list[SymbolEntry]:
        return self.store.read(lambda c: symbols_page(c, repo_id, after, limit))

    def packages(self, repo_id: str, after: str | None, limit: int) -> list[PackageEntry]:
        return self.store.read(lambda c: packages_page(c, repo_id, after, limit))

    def symbol(self, repo_id: str, fq_name: str) -> SymbolEntry | None:
        return self.store.read(lambda c: symbol_entry(c, repo_id, fq_name))

    def package(self, repo_id: str, path: str) -> PackageEntry | None:
        return self.store.read(lambda c: package_entry(c, repo_id, path))
