"""Pages of the structural trees for `repocontext_scan` (spec §1.4): Symbols and Packages,
and the per-key reads of the same records for recall and neighbors (one shape for both).

- Symbols: one row per fully-qualified name in ascending order (the agent-facing key is
  `repo/{repoId}/symbol/{fqName}`, so key order is name order). A name declared in several
  files is listed once, from its first file by path, as a per-key read (recall) resolves it.
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

SCAN_DDL = ("CREATE INDEX IF NOT EXISTS symbols_by_fq ON symbols (repo, fq_name)",)


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
        # the row of the first file by path supplies the bare columns (SQLite's min())
        """SELECT s.fq_name, min(f.path), s.kind, s.signature, s.start_line, s.end_line, s.digest
           FROM symbols s INDEXED BY symbols_by_fq CROSS JOIN symbol_files f ON f.id = s.file
           WHERE s.repo = (SELECT id FROM repo_numbers WHERE repo_id = ?) AND s.fq_name > ?
           GROUP BY s.fq_name ORDER BY s.fq_name LIMIT ?""",
        (repo_id, after if after is not None else "", limit),
    ).fetchall()
    return [
        SymbolEntry(str(r[0]), str(r[1]), str(r[2]), str(r[3]), r[4], r[5], str(r[6])) for r in rows
    ]


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
    row = conn.execute(
        """SELECT s.fq_name, f.path, s.kind, s.signature, s.start_line, s.end_line, s.digest
           FROM symbols s INDEXED BY symbols_by_fq CROSS JOIN symbol_files f ON f.id = s.file
           WHERE s.repo = (SELECT id FROM repo_numbers WHERE repo_id = ?) AND s.fq_name = ?
           ORDER BY f.path, s.start_line LIMIT 1""",
        (repo_id, fq_name),
    ).fetchone()
    if row is None:
        return None
    return SymbolEntry(
        str(row[0]), str(row[1]), str(row[2]), str(row[3]), row[4], row[5], str(row[6])
    )


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
