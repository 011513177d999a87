"""View of sources.v1: each git source's latest poll, for freshness (issue #8).

One row per repository: the ref's commit at the last poll, that poll's status and error, and
when it ran, and the newest commit whose every change the log had acknowledged then
(`published_commit`): once the views have applied the whole log, that *is* the indexed
commit; that covers a commit that only deletes files, whose tombstones carry no
revision for the structure handler to stamp. `indexed_commit()` derives it at read time and
never writes it back, so a replay (which may interleave the topics differently) rebuilds the
same answer.

The row is about the source, not the index: reset_index keeps it (and `indexed_commit()`
answers None while nothing is indexed), removing the repository deletes it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from schemas import topics
from schemas.events import SourceStatus
from streams.errors import StoreError
from streams.stores.views.registry import Item, Tree, ViewRegistry
from streams.stores.views.store import ViewStore

SOURCES_DDL = """CREATE TABLE IF NOT EXISTS sources (
    repo_id TEXT PRIMARY KEY,
    ref TEXT NOT NULL,
    head_commit TEXT,
    published_commit TEXT,
    status TEXT NOT NULL,
    error TEXT,
    checked_at REAL NOT NULL
) WITHOUT ROWID"""


@dataclass(frozen=True, slots=True)
class SourceRow:
    repo_id: str
    ref: str
    head_commit: str | None
    published_commit: str | None
    status: str
    error: str | None
    checked_at: float


def indexed_commit(
    files_commit: str | None, source: SourceRow | None, *, caught_up: bool
) -> str | None:
    """The commit a git repository's index reflects: the poller's last fully published commit
    when the views have applied the whole log (`caught_up`), else the newest revision stamped
    on an applied file record."""
    if files_commit is None:  # nothing indexed (or reset): no poll vouches for an index
        return None
    if caught_up and source is not None and source.published_commit:
        return source.published_commit
    return files_commit


def apply_sources(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    for key, value in items:
        if key is None:
            raise StoreError("sources.v1: a record without a key cannot be applied")
        if value is None:
            conn.execute("DELETE FROM sources WHERE repo_id = ?", (key,))
            continue
        if not isinstance(value, SourceStatus):
            raise StoreError(f"sources.v1: expected SourceStatus, got {type(value).__name__}")
        conn.execute(
            """INSERT OR REPLACE INTO sources (repo_id, ref, head_commit, published_commit,
                   status, error, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (
                key,
                value.ref,
                value.head_commit,
                value.published_commit,
                value.status,
                value.error,
                value.checked_at,
            ),
        )


def register_source_views(registry: ViewRegistry) -> None:
    registry.add_schema(SOURCES_DDL)
    registry.add_tree(Tree("sources", "DELETE FROM sources WHERE repo_id = ?", code_index=False))
    registry.add_topic(topics.SOURCES.name, apply_sources)


def source_of(store: ViewStore, repo_id: str) -> SourceRow | None:
    """The latest poll of a git-sourced repository (None: not git-sourced or never polled)."""
    row = store.read(
        lambda c: c.execute(
            "SELECT repo_id, ref, head_commit, published_commit, status, error, checked_at "
            "FROM sources "
            "WHERE repo_id = ?",
            (repo_id,),
        ).fetchone()
    )
    if row is None:
        return None
    return SourceRow(str(row[0]), str(row[1]), row[2], row[3], str(row[4]), row[5], float(row[6]))
