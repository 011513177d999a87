"""Data directory size against the source it indexes, with a breakdown per log topic and table.

    python -m tests.bench.storage_size PATH [--repo-id ID] [--data-dir DIR] [--keep]
    python -m tests.bench.storage_size PATH --data-dir DIR --report-only  # e.g. an older build's

Indexes PATH keyword only (`repocontext index --embedder none`) into a fresh data directory
(a temporary one unless --data-dir), then reports: the source (bytes of the files the views
hold, and of the whole tree), every file of the data directory, the event log's payload bytes
per topic (as stored, and the JSON they decode to), and the pages of every table and index of
the log and the views (SQLite's dbstat). Nothing is timed; the figures are bytes.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from streams.eventlog.sqlite_values import stored_value


def tree_bytes(root: Path) -> int:
    total = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            path = Path(folder, name)
            if not path.is_symlink():
                total += path.stat().st_size
    return total


def mib(n: float) -> str:
    return f"{n / 2**20:9.2f} MiB"


def table_pages(db: Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
        ).fetchall()
    finally:
        conn.close()
    return [(str(name), int(size)) for name, size in rows]


def topic_payloads(log: Path) -> list[tuple[str, int, int, int]]:
    """(topic, records, stored bytes, decoded bytes) of every topic in the log; a spliced
    value's stored bytes are its frame (its blobs are reported on their own)."""
    conn = sqlite3.connect(f"file:{log}?mode=ro", uri=True)
    found: dict[str, list[int]] = {}
    dictionaries: dict[int, bytes] = {}  # the topics' zlib dictionaries, read once each
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(records)")}
        packing = "packed" if "packed" in columns else "NULL"  # a log from before packing
        ids = "blob_ids" if "blob_ids" in columns else "NULL"  # ... or before blobs
        rows = conn.execute(f"SELECT topic, {packing}, value, {ids} FROM records")
        for topic, packed, value, blob_ids in rows:
            entry = found.setdefault(str(topic), [0, 0, 0])
            entry[0] += 1
            if value is not None:
                entry[1] += len(value)
                plain = stored_value(packed, bytes(value), blob_ids, conn, dictionaries)
                entry[2] += len(plain or b"")
    finally:
        conn.close()
    return sorted(((t, *v) for t, v in found.items()), key=lambda r: -r[2])  # type: ignore[misc]


def blob_bytes(log: Path) -> tuple[int, int, int]:
    """(blobs, references to them, stored bytes) of the log's long literals kept once."""
    conn = sqlite3.connect(f"file:{log}?mode=ro", uri=True)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'blobs'").fetchone():
            return 0, 0, 0
        row = conn.execute("SELECT count(*), sum(refs), sum(length(value)) FROM blobs").fetchone()
    finally:
        conn.close()
    return int(row[0]), int(row[1] or 0), int(row[2] or 0)


def dictionary_bytes(log: Path) -> tuple[int, int]:
    """(dictionaries, stored bytes) of the log's per-topic zlib dictionaries."""
    conn = sqlite3.connect(f"file:{log}?mode=ro", uri=True)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'dictionaries'").fetchone():
            return 0, 0
        row = conn.execute("SELECT count(*), sum(length(value)) FROM dictionaries").fetchone()
    finally:
        conn.close()
    return int(row[0]), int(row[1] or 0)


def report(source: Path, data_dir: Path) -> None:
    views = data_dir / "views.db"
    conn = sqlite3.connect(f"file:{views}?mode=ro", uri=True)
    indexed = int(conn.execute("SELECT coalesce(sum(size), 0) FROM files").fetchone()[0])
    count = int(conn.execute("SELECT count(*) FROM files").fetchone()[0])
    conn.close()
    files = sorted(p for p in data_dir.rglob("*") if p.is_file())
    total = sum(p.stat().st_size for p in files)
    print(f"source: {count} files indexed, {mib(indexed)} (whole tree {mib(tree_bytes(source))})")
    print(f"data directory: {mib(total)} = {total / max(indexed, 1):.2f}x the indexed source")
    for path in files:
        print(f"  {path.relative_to(data_dir)!s:<40} {mib(path.stat().st_size)}")
    print("log payloads per topic (records, stored, decoded JSON):")
    for topic, records, stored, decoded in topic_payloads(data_dir / "log.db"):
        print(f"  {topic:<40} {records:7d} {mib(stored)} {mib(decoded)}")
    blobs, refs, stored = blob_bytes(data_dir / "log.db")
    print(f"  {'long literals kept once (blobs)':<40} {blobs:7d} {mib(stored)} ({refs} uses)")
    count, stored = dictionary_bytes(data_dir / "log.db")
    print(f"  {'topic dictionaries':<40} {count:7d} {mib(stored)}")
    for name in ("log.db", "views.db"):
        print(f"{name} pages per table/index (dbstat):")
        for table, size in table_pages(data_dir / name):
            if size >= 64 * 1024:
                print(f"  {table:<40} {mib(size)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--repo-id", default=None)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the temporary data directory")
    parser.add_argument(
        "--report-only", action="store_true", help="report on --data-dir without indexing"
    )
    args = parser.parse_args()
    source = args.path.resolve()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="storage-size-"))
    repo_id = args.repo_id or source.name
    command = [sys.executable, "-m", "repocontext.cli", "index", str(source)]
    command += ["--repo-id", repo_id, "--data-dir", str(data_dir), "--embedder", "none"]
    if not args.report_only:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    report(source, data_dir)
    if args.data_dir is None and not args.keep:
        for path in sorted(data_dir.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        data_dir.rmdir()
    else:
        print(f"kept {data_dir}")


if __name__ == "__main__":
    main()
