"""File events as the tests publish them to a log: one source-file upsert record."""

from __future__ import annotations

from schemas import codec
from schemas.events import FileUpsert, file_key
from streams.eventlog.base import LogRecord


def upsert_record(repo: str, path: str, body: str) -> LogRecord:
    """A Python file's upsert in `repo`, keyed as sources key it (digest from the body)."""
    event = FileUpsert(
        repo_id=repo,
        path=path,
        digest=f"xx128:{abs(hash(body)):032x}"[:38],
        size=len(body),
        mtime_ns=1,
        language="python",
        body=body,
        observed_at=1.0,
    )
    return LogRecord(file_key(repo, path), codec.encode(event))
