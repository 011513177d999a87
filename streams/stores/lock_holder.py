"""Which process holds an SQLite database's write lock, from the kernel's list of file locks.

SQLite says only `database is locked`: the operator whose views stall behind a `sqlite3`
shell or a backup tool left in a transaction has to guess which. Its writer takes a POSIX
lock the kernel lists in `/proc/locks` with the holder's pid: byte 120 of the `-shm` file in
WAL mode (WAL_WRITE_LOCK), the RESERVED byte of the database file otherwise. Linux only;
elsewhere, or for a lock without a pid (an OFD lock), nothing is named.
"""

from __future__ import annotations

import os
from pathlib import Path

PROC_LOCKS = "/proc/locks"
WAL_WRITE_BYTE = 120  # sqlite3.c: WALINDEX_LOCK_OFFSET + WAL_WRITE_LOCK
RESERVED_BYTE = 0x40000001  # sqlite3.c: PENDING_BYTE + 1 (rollback journal mode)
COMMAND_CHARS = 160


def write_lock_holder(db_path: str | Path) -> str | None:
    """`pid N (its command line)` of the process holding `db_path`'s write lock, `this
    process` when it is ours, or None when none is found (or the kernel cannot say)."""
    targets = {
        ident: byte
        for suffix, byte in (("-shm", WAL_WRITE_BYTE), ("", RESERVED_BYTE))
        if (ident := _file_id(f"{db_path}{suffix}")) is not None
    }
    if not targets:
        return None
    try:
        with open(PROC_LOCKS) as locks:
            lines = locks.readlines()
    except OSError:
        return None
    for line in lines:
        pid = _writer_on(line.split(), targets)
        if pid is not None:
            return "this process" if pid == os.getpid() else f"pid {pid} ({_command(pid)})"
    return None


def _file_id(path: str) -> tuple[int, int, int] | None:
    """(major, minor, inode) as /proc/locks names a file; None when there is no such file."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return os.major(st.st_dev), os.minor(st.st_dev), st.st_ino


def _writer_on(fields: list[str], targets: dict[tuple[int, int, int], int]) -> int | None:
    """The pid of a `N: POSIX ADVISORY WRITE pid maj:min:inode start end` line that write-locks
    a target's byte; None for any other line (a `->` waiter has one field more)."""
    if len(fields) != 8 or fields[1] != "POSIX" or fields[3] != "WRITE":
        return None
    try:
        major, minor, inode = fields[5].split(":")
        ident = (int(major, 16), int(minor, 16), int(inode))
        start, end, pid = int(fields[6]), fields[7], int(fields[4])
    except ValueError:
        return None
    byte = targets.get(ident)
    if byte is None or not (start <= byte and (end == "EOF" or byte <= int(end))):
        return None
    return pid if pid > 0 else None


def _command(pid: int) -> str:
    """The holder's command line, shortened; `unknown command` when it cannot be read."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "unknown command"
    text = " ".join(part.decode("utf-8", "replace") for part in raw.split(b"\0") if part)
    text = " ".join(text.split())  # a script given with -c spans lines
    return text if len(text) <= COMMAND_CHARS else text[: COMMAND_CHARS - 3] + "..."
