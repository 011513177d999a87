"""Ingest's own state, kept across restarts and never derived from the log (so `replay`, which
drops every projection, keeps it):

- per file, what a workspace source last published, for the stat fast path. A cache of the
  log, not a source of truth: losing it only costs one full re-read. It must never claim more
  than the log holds, so callers record a batch's rows only after the batch's events were
  appended. Before appending, they mark each path the batch upserts `IN_FLIGHT` (a row that
  matches no file): a crash between the append and the record otherwise left a file the log
  holds unknown here, and its deletion while nothing ran was never tombstoned. Each
  repository remembers the id of the log instance it published to; when the caller reports
  a different one (the log was recreated or replayed from elsewhere) the repository's rows
  are discarded and everything is published again.
- per repository, the progress snapshot of its latest ingest job, which index_status reports
  after a restart (the job, not any record, is its source).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from streams.errors import SourceError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS manifest_repos (
    repo_id TEXT PRIMARY KEY,
    log_instance_id TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS manifest_files (
    repo_id TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    digest TEXT,
    anchor_ns INTEGER NOT NULL,
    PRIMARY KEY (repo_id, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ingest_jobs (
    repo_id TEXT PRIMARY KEY,
    progress TEXT NOT NULL
) WITHOUT ROWID;
"""


# What schemas.events.looks_binary calls binary, by version: 1 = UTF-16 behind a byte-order
# mark is text. A manifest from an older version forgets its excluded binaries once.
SNIFF_VERSION = 1


@dataclass(frozen=True, slots=True)
class ManifestRow:
    """The stat and digest of a file as last read.

    `digest` None means "seen but deliberately not published" (an excluded binary), so an
    unchanged binary is not re-sniffed and its disappearance publishes no tombstone.
    `anchor_ns` is the wall clock when the content was read; the fast path only trusts an
    mtime clearly older than it (git's "racy" rule), since a write in the same timestamp tick
    as the read would otherwise leave size and mtime unchanged.
    """

    size: int
    mtime_ns: int
    digest: str | None
    anchor_ns: int

    @property
    def published(self) -> bool:
        return self.digest is not None


# A path whose upsert may be in the log, its row not recorded yet: its size and digest match
# no file, so the next pass re-reads it (publishing it again) or, if it is gone, tombstones it.
IN_FLIGHT = ManifestRow(size=-1, mtime_ns=-1, digest="", anchor_ns=0)


class Manifest:
    """SQLite-backed manifest; safe to share between the event loop and worker threads."""

    def __init__(self, path: Path | str) -> None:
        try:
            self._db = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=30.0
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._resniff_binaries()
        except sqlite3.Error as exc:
            raise SourceError(f"cannot open the source manifest at {path}: {exc}") from exc
        self._lock = threading.Lock()

    def _resniff_binaries(self) -> None:
        """Rows written under an older binary sniff go (once, in user_version): a UTF-16 file
        was an excluded binary before SNIFF_VERSION 1, and the fast path would keep it out
        until it changed. Each such file is read again by the next pass."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            found = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if found < SNIFF_VERSION:
                self._db.execute("DELETE FROM manifest_files WHERE digest IS NULL")
                self._db.execute(f"PRAGMA user_version = {SNIFF_VERSION}")

    def __enter__(self) -> Manifest:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def load(self, repo_id: str, log_instance_id: str) -> dict[str, ManifestRow]:
        """All rows of a repository, or {} (and the old rows dropped) if the log is another one."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            found = self._db.execute(
                "SELECT log_instance_id FROM manifest_repos WHERE repo_id = ?", (repo_id,)
            ).fetchone()
            if found is None or found[0] != log_instance_id:
                self._db.execute("DELETE FROM manifest_files WHERE repo_id = ?", (repo_id,))
                self._db.execute(
                    "INSERT OR REPLACE INTO manifest_repos (repo_id, log_instance_id)"
                    " VALUES (?, ?)",
                    (repo_id, log_instance_id),
                )
                return {}
            cursor = self._db.execute(
                "SELECT path, size, mtime_ns, digest, anchor_ns FROM manifest_files"
                " WHERE repo_id = ?",
                (repo_id,),
            )
            return {
                path: ManifestRow(size, mtime, dig, anchor)
                for path, size, mtime, dig, anchor in cursor
            }

    def apply(
        self, repo_id: str, record: Mapping[str, ManifestRow], forget: Iterable[str] = ()
    ) -> None:
        """Store `record` and drop `forget` in one transaction (a published batch's bookkeeping).

        Call `load` for the repository first: it registers the log instance the rows belong to,
        and rows of a repository without one are discarded by the next `load`.
        """
        rows = [(repo_id, p, r.size, r.mtime_ns, r.digest, r.anchor_ns) for p, r in record.items()]
        gone = [(repo_id, path) for path in forget]
        if not rows and not gone:
            return
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("DELETE FROM manifest_files WHERE repo_id = ? AND path = ?", gone)
            self._db.executemany(
                "INSERT OR REPLACE INTO manifest_files"
                " (repo_id, path, size, mtime_ns, digest, anchor_ns) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

    def record(self, repo_id: str, rows: Mapping[str, ManifestRow]) -> None:
        self.apply(repo_id, rows)

    def forget(self, repo_id: str, paths: Iterable[str]) -> None:
        self.apply(repo_id, {}, paths)

    def drop_repo(self, repo_id: str) -> None:
        """Forget a repository entirely (it was removed): its files and its job."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM manifest_files WHERE repo_id = ?", (repo_id,))
            self._db.execute("DELETE FROM manifest_repos WHERE repo_id = ?", (repo_id,))
            self._db.execute("DELETE FROM ingest_jobs WHERE repo_id = ?", (repo_id,))

    def put_job(self, repo_id: str, snapshot: Mapping[str, Any]) -> None:
        """Store the repository's latest ingest job's progress snapshot (JSON)."""
        try:
            progress = json.dumps(dict(snapshot), sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise SourceError(f"job snapshot of {repo_id!r} is not JSON: {exc}") from exc
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO ingest_jobs (repo_id, progress) VALUES (?, ?)",
                (repo_id, progress),
            )

    def get_job(self, repo_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT progress FROM ingest_jobs WHERE repo_id = ?", (repo_id,)
            ).fetchone()
        if row is None:
            return None
        job: dict[str, Any] = json.loads(row[0])
        return job
