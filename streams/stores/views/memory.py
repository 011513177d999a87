"""Views of memory.v1 (current memory entries) and memory.results.v1 (command verdicts).

- `memory`: one row per live entry keyed by its agent-facing key
  (`repo/{repoId}/mem/{topic}/{id}`), so a topic is one range read in key order; the whole
  entry is kept as JSON (it is small and always read whole).
- `memory_results`: the processor's verdict per command id, read once by the tool call that
  appended the command; rows older than an hour (command time) are pruned as new ones land.
Both are `code_index=False` trees: reset_index keeps them, removing the repository deletes.
Expiry is evaluated at read time against the caller's clock (`now`), never stored as gone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from schemas import topics
from schemas.memory import CommandResult, MemoryEntry, memory_key
from streams.errors import StoreError
from streams.stores.views.memory_search import (
    MEMORY_SEARCH_DDL,
    MemoryHit,
    index_entry,
    linked_memory,
    search_memory,
)
from streams.stores.views.registry import Item, Tree, ViewRegistry
from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_decls import first_declaration

RESULT_KEEP_SECONDS = 3600.0

MEMORY_DDL = (
    """CREATE TABLE IF NOT EXISTS memory (
        key TEXT PRIMARY KEY,
        repo_id TEXT NOT NULL,
        topic TEXT NOT NULL,
        id TEXT NOT NULL,
        expires_at REAL,
        entry TEXT NOT NULL
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS memory_by_repo ON memory (repo_id, key)",
    """CREATE TABLE IF NOT EXISTS memory_results (
        repo_id TEXT NOT NULL,
        command_id TEXT NOT NULL,
        issued_at REAL NOT NULL,
        result TEXT NOT NULL,
        PRIMARY KEY (repo_id, command_id)
    ) WITHOUT ROWID""",
)


def entry_json(entry: MemoryEntry) -> str:
    """The stored entry without its search terms (the search rows hold those; reads never
    need them)."""
    return entry.model_dump_json(exclude={"search_terms"})


def apply_memory(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    for key, value in items:
        if key is None:
            raise StoreError("memory.v1: a record without a key cannot be applied")
        repo_id, topic, id_ = key.split("/", 2)
        mkey = memory_key(repo_id, topic, id_)
        if value is None:
            conn.execute("DELETE FROM memory WHERE key = ?", (mkey,))  # trigger: search rows
            continue
        if not isinstance(value, MemoryEntry):
            raise StoreError(f"memory.v1: expected MemoryEntry, got {type(value).__name__}")
        conn.execute(
            """INSERT OR REPLACE INTO memory (key, repo_id, topic, id, expires_at, entry)
               VALUES (?, ?, ?, ?, ?, ?)""",
            (mkey, repo_id, topic, id_, value.expires_at, entry_json(value)),
        )
        index_entry(conn, mkey, value)


def apply_results(conn: sqlite3.Connection, items: Sequence[Item]) -> None:
    newest = 0.0
    for _, value in items:
        if not isinstance(value, CommandResult):
            continue  # retention tombstones carry nothing
        newest = max(newest, value.issued_at)
        conn.execute(
            """INSERT OR REPLACE INTO memory_results (repo_id, command_id, issued_at, result)
               VALUES (?, ?, ?, ?)""",
            (value.repo_id, value.command_id, value.issued_at, value.model_dump_json()),
        )
    if newest:
        conn.execute(
            "DELETE FROM memory_results WHERE issued_at < ?", (newest - RESULT_KEEP_SECONDS,)
        )


def register_memory_views(registry: ViewRegistry) -> None:
    registry.add_schema(*MEMORY_DDL, *MEMORY_SEARCH_DDL)
    registry.add_tree(Tree("memory", "DELETE FROM memory WHERE repo_id = ?", code_index=False))
    registry.add_tree(
        Tree("memory_results", "DELETE FROM memory_results WHERE repo_id = ?", code_index=False)
    )
    registry.add_topic(topics.MEMORY.name, apply_memory)
    registry.add_topic(topics.MEMORY_RESULTS.name, apply_results)


def _live(now: float) -> str:
    return f"(expires_at IS NULL OR expires_at > {float(now)!r})"


class MemoryViews:
    """The read API of memory for query_api (entries, pages, topics, results, digests)."""

    def __init__(self, store: ViewStore) -> None:
        self.store = store

    def get(self, key: str) -> MemoryEntry | None:
        """The stored entry, expired or not (the caller evaluates expiry)."""
        row = self.store.read(
            lambda c: c.execute("SELECT entry FROM memory WHERE key = ?", (key,)).fetchone()
        )
        return None if row is None else MemoryEntry.model_validate_json(row[0])

    def every_entry(self) -> list[MemoryEntry]:
        """Every entry the views hold, expired ones too, in key order (replay's rescue copy)."""
        rows = self.store.read(
            lambda c: c.execute("SELECT entry FROM memory ORDER BY key").fetchall()
        )
        return [MemoryEntry.model_validate_json(r[0]) for r in rows]

    def page(
        self, repo_id: str, now: float, topic: str | None, after: str | None, limit: int
    ) -> list[MemoryEntry]:
        """Live entries of a repository (or one topic) in ascending key order after `after`."""
        prefix = f"repo/{repo_id}/mem/" + (f"{topic}/" if topic is not None else "")
        low = max(prefix, after) if after is not None else prefix
        op = ">" if after is not None and after >= prefix else ">="
        sql = (
            f"SELECT entry FROM memory WHERE repo_id = ? AND key {op} ? AND key < ? "
            f"AND {_live(now)} ORDER BY key LIMIT ?"
        )
        rows = self.store.read(
            lambda c: c.execute(sql, (repo_id, low, prefix + "\U0010ffff", limit)).fetchall()
        )
        entries = [MemoryEntry.model_validate_json(r[0]) for r in rows]
        if topic is not None:
            entries = [e for e in entries if e.topic == topic]
        return entries

    def topics(self, repo_id: str, now: float) -> list[tuple[str, int]]:
        sql = (
            f"SELECT topic, count(*) FROM memory WHERE repo_id = ? AND {_live(now)} "
            "GROUP BY topic ORDER BY topic"
        )
        rows = self.store.read(lambda c: c.execute(sql, (repo_id,)).fetchall())
        return [(str(r[0]), int(r[1])) for r in rows]

    def search(self, repo_id: str, query: str, k: int, now: float) -> list[MemoryHit]:
        """BM25 over the repository's live entries (views/memory_search)."""
        return self.store.read(lambda c: search_memory(c, repo_id, query, k, now))

    def linked(
        self, repo_id: str, targets: list[str], now: float, limit: int, file_path: str | None
    ) -> list[MemoryEntry]:
        """Live entries of `repo_id` linking to `targets` (or to a symbol of `file_path`)."""
        return self.store.read(
            lambda c: linked_memory(c, repo_id, targets, now, limit, file_path=file_path)
        )

    def expired(self, now: float, limit: int = 1000) -> list[tuple[str, str]]:
        """(repoId, key) of entries whose expiry has passed (their vectors are retired)."""
        sql = "SELECT repo_id, key FROM memory WHERE expires_at <= ? ORDER BY key LIMIT ?"
        rows = self.store.read(lambda c: c.execute(sql, (float(now), limit)).fetchall())
        return [(str(r[0]), str(r[1])) for r in rows]

    def result(self, repo_id: str, command_id: str) -> CommandResult | None:
        row = self.store.read(
            lambda c: c.execute(
                "SELECT result FROM memory_results WHERE repo_id = ? AND command_id = ?",
                (repo_id, command_id),
            ).fetchone()
        )
        return None if row is None else CommandResult.model_validate_json(row[0])

    def target_digest(self, key: str) -> tuple[bool, str | None]:
        """(exists, digest) of a structural link target (file or symbol); others (False, None)
        when absent, (True, None) when the family carries no digest."""
        parts = key.split("/", 3)
        if len(parts) != 4:
            return (True, None)
        repo_id, family, rest = parts[1], parts[2], parts[3]
        if family in ("file", "content"):
            sql, args = "SELECT digest FROM files WHERE repo_id = ? AND path = ?", (repo_id, rest)
        elif family == "symbol":
            try:
                found = self.store.read(lambda c: first_declaration(c, repo_id, rest))
            except StoreError:
                return (False, None)
            return (False, None) if found is None else (True, found[1][5])
        else:
            return (True, None)
        try:
            row = self.store.read(lambda c: c.execute(sql, args).fetchone())
        except StoreError:
            return (False, None)
        return (False, None) if row is None else (True, str(row[0]))
