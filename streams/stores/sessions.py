"""Bundle sessions (spec §3.7): per (repo, session) two grow-only sets, the unit receipts
delivered and the whole-file possessions (`path\\0contentHash`), with a 6 h TTL.

The reference keeps them in its durable store (`repo/{repoId}/session/{id}`), so an agent's
session outlives a server restart; here they live in their own SQLite file in the data dir
(`sessions.db`): not in the log, because they are caches of what was sent, not facts to
replay, and losing them only costs a re-delivery. Merge is set union (INSERT OR IGNORE), so
concurrent calls of one session converge. Bounded: a session records at most
`MAX_ITEMS_PER_SESSION` items (later ones are simply not remembered), and past
`MAX_SESSIONS` live sessions the least recently used are dropped; expired sessions are
swept on use.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

SESSION_TTL_S = 6 * 3600.0
MAX_SESSIONS = 10_000
MAX_ITEMS_PER_SESSION = 50_000
SWEEP_EVERY_S = 60.0

_DDL = (
    """CREATE TABLE IF NOT EXISTS sessions (
        repo_id TEXT NOT NULL,
        session TEXT NOT NULL,
        touched REAL NOT NULL,
        items INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (repo_id, session)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS sessions_by_touch ON sessions (touched)",
    """CREATE TABLE IF NOT EXISTS session_items (
        repo_id TEXT NOT NULL,
        session TEXT NOT NULL,
        kind TEXT NOT NULL,  -- 'r' receipt | 'p' possession
        value TEXT NOT NULL,
        PRIMARY KEY (repo_id, session, kind, value)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER IF NOT EXISTS session_items_forget AFTER DELETE ON sessions BEGIN
        DELETE FROM session_items WHERE repo_id = old.repo_id AND session = old.session;
    END""",
)


@dataclass
class Session:
    receipts: set[str] = field(default_factory=set)
    possessions: set[str] = field(default_factory=set)


class SessionStore:
    """Durable with a path; in-memory (for one process) with None."""

    def __init__(self, path: Path | None = None, ttl_s: float = SESSION_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(
            str(path) if path is not None else ":memory:",
            check_same_thread=False,
            isolation_level=None,
        )
        if path is not None:
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.execute("PRAGMA busy_timeout = 5000")
        for statement in _DDL:
            self._conn.execute(statement)
        self._swept = 0.0

    def _sweep(self, now: float) -> None:
        if now - self._swept < SWEEP_EVERY_S:
            return
        self._swept = now
        self._conn.execute("DELETE FROM sessions WHERE touched < ?", (now - self.ttl_s,))
        (count,) = self._conn.execute("SELECT count(*) FROM sessions").fetchone()
        if count > MAX_SESSIONS:
            self._conn.execute(  # the least recently used go first
                """DELETE FROM sessions WHERE (repo_id, session) IN (SELECT repo_id, session
                   FROM sessions ORDER BY touched LIMIT ?)""",
                (count - MAX_SESSIONS,),
            )

    def get(self, repo_id: str, session: str, now: float) -> Session:
        """The session's sets; empty when unknown or idle longer than the TTL."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._sweep(now)
                row = self._conn.execute(
                    "SELECT touched FROM sessions WHERE repo_id = ? AND session = ?",
                    (repo_id, session),
                ).fetchone()
                found = Session()
                if row is not None and now - float(row[0]) <= self.ttl_s:
                    for kind, value in self._conn.execute(
                        "SELECT kind, value FROM session_items WHERE repo_id = ? AND session = ?",
                        (repo_id, session),
                    ):
                        (found.receipts if kind == "r" else found.possessions).add(value)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return found

    def merge(
        self, repo_id: str, session: str, receipts: set[str], owned: set[str], now: float
    ) -> None:
        """Union `receipts` and `owned` into the session and mark it used now."""
        items = [("p", v) for v in sorted(owned)] + [("r", v) for v in sorted(receipts)]
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = self._conn.execute(
                    "SELECT touched, items FROM sessions WHERE repo_id = ? AND session = ?",
                    (repo_id, session),
                ).fetchone()
                if row is not None and now - float(row[0]) > self.ttl_s:
                    self._conn.execute(  # expired: start afresh (the trigger drops its items)
                        "DELETE FROM sessions WHERE repo_id = ? AND session = ?", (repo_id, session)
                    )
                    row = None
                held = int(row[1]) if row is not None else 0
                room = max(0, MAX_ITEMS_PER_SESSION - held)
                added = 0
                for kind, value in items[:room]:
                    cursor = self._conn.execute(
                        "INSERT OR IGNORE INTO session_items VALUES (?, ?, ?, ?)",
                        (repo_id, session, kind, value),
                    )
                    added += cursor.rowcount
                self._conn.execute(
                    """INSERT INTO sessions (repo_id, session, touched, items) VALUES (?, ?, ?, ?)
                       ON CONFLICT (repo_id, session) DO UPDATE SET
                       touched = max(touched, excluded.touched), items = items + ?""",
                    (repo_id, session, now, added, added),
                )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def delete_repo(self, repo_id: str) -> int:
        """Forget every session of a repository (its removal or index reset)."""
        with self._lock:
            cursor = self._conn.execute("DELETE FROM sessions WHERE repo_id = ?", (repo_id,))
            return int(cursor.rowcount)

    def close(self) -> None:
        with self._lock:
            self._conn.close()
