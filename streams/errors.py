"""Exception root of the streams package.

StreamsError
├── EventLogError        the log rejected or could not serve a request
│   ├── UnknownTopicError
│   ├── LogUnreachable   the log did not answer (broker down, network, timeout): retry later
│   └── UndecodableKey   a record's key is not UTF-8: that record is a dead letter
├── SourceError          a source could not read its repository
├── StoreError           a view/vector store could not apply or answer
└── StorageFull          the data directory cannot take a write (disk full, quota, size limit)
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Callable

from schemas.errors import RepoContextError


class StreamsError(RepoContextError):
    """Root of every error raised by streams/."""


class EventLogError(StreamsError):
    pass


class UnknownTopicError(EventLogError):
    pass


class LogUnreachable(EventLogError):
    """The log did not answer in time or could not be connected to. Nothing is wrong with
    the request or the data: readers keep serving what they hold and retry."""


class UndecodableKey(EventLogError):
    """A record whose key is not UTF-8 (no writer of ours makes one: it was put on the topic
    by hand or by a foreign producer). Raised by the step that meets it, so the record becomes
    a dead letter like any other poison record, instead of failing the read it came in."""


class SourceError(StreamsError):
    pass


class StoreError(StreamsError):
    pass


class StorageFull(StreamsError):
    """A write failed for lack of space. Never a poison record: nothing is dead-lettered or
    skipped, the write is retried, and what was committed before it stays intact."""

    @classmethod
    def at(cls, path: object, exc: BaseException) -> StorageFull:
        return cls(
            f"cannot write {path}: the disk holding the data directory is full or a file-size "
            f"limit was reached ({exc}); free space and run again, nothing committed is lost"
        )


_FULL_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
# SQLite reports ENOSPC as SQLITE_FULL and EFBIG (a file-size limit) as a write I/O error.
_FULL_SQLITE = {"SQLITE_FULL", "SQLITE_IOERR_WRITE", "SQLITE_IOERR_FSYNC", "SQLITE_IOERR_TRUNCATE"}


# Another connection holds the write lock past the busy timeout (a `sqlite3` shell, a backup
# tool): the write can succeed later, so no record is at fault.
_BUSY_SQLITE = {"SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_TIMEOUT", "SQLITE_LOCKED"}


def store_busy(exc: BaseException | None) -> bool:
    """Whether `exc` (or anything in its cause chain) is an SQLite write kept out by another
    connection's lock (`database is locked`)."""
    return _in_cause_chain(exc, _is_busy)


def storage_exhausted(exc: BaseException | None) -> bool:
    """Whether `exc` (or anything in its cause chain) is a write that ran out of room."""
    return _in_cause_chain(exc, _is_full)


def _in_cause_chain(exc: BaseException | None, test: Callable[[BaseException], bool]) -> bool:
    """`test` of `exc` and of what caused it, at most 8 links down (a store wraps SQLite's
    error in its own, and a step's in another)."""
    for _ in range(8):
        if exc is None:
            return False
        if test(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _is_busy(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    name = getattr(exc, "sqlite_errorname", "")
    return name in _BUSY_SQLITE or "database is locked" in str(exc)


def _is_full(exc: BaseException) -> bool:
    if isinstance(exc, StorageFull):
        return True
    if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
        return True
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", "")
        return name in _FULL_SQLITE or "disk is full" in str(exc)
    return False
