"""Walk a workspace and read its files: discovery (stat only) and one bounded read per file.

Discovery is a depth-first walk that yields files in ordinal order of their repo-relative
path (the order the reference system publishes in), so its output is deterministic and can
be merged against a sorted manifest. Symlinks are skipped entirely, never followed: that both
keeps the walk inside the root and makes cycles impossible.

Every directory listed and every file read is opened through `safe_open`, descending from the
root one component at a time with O_NOFOLLOW, so a directory swapped for a symlink between
discovery and the read is refused instead of followed out of the root. `read_file` sniffs
git's binary heuristic (UTF-16 behind a byte-order mark is text), hashes up to 256 MiB with
xxh3-128 in bounded chunks (past that, the size and mtime stand for the rest) and decodes only
the first `indexed_limit()` characters (what keyword search indexes; the tools return the first
MAX_BODY_CHARS of them), so memory stays bounded for huge files.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import xxhash

from processors.language import language_for_path
from schemas.events import (
    INDEXED_CHARS_RANGE,
    MAX_INDEXED_CHARS,
    FileUpsert,
    WalkFilters,
    decode_text,
    looks_binary,
)
from streams.errors import SourceError
from streams.sources.ignore import PathFilter, utf8_path
from streams.sources.safe_open import NotRegularFile, dir_beneath, lstat_beneath, open_file_beneath

DIGEST_PREFIX = "xx128:"
_CHUNK_BYTES = 1024 * 1024
_MIN_READ_BYTES = 64 * 1024
# Bytes hashed per file at most. Past them the digest covers the first _MAX_HASH_BYTES plus the
# size and mtime the open saw: a 20 GB sparse file took 46 s to hash at every read, one that
# grows as fast as it is read never reached EOF, and both held the ordered read behind them.
_MAX_HASH_BYTES = 256 * 1024 * 1024
_limit = [MAX_INDEXED_CHARS]  # characters of a file published for search (configure_indexed_limit)


def configure_indexed_limit(chars: int) -> None:
    """Set once by the composition root from its settings (every source of the process reads
    files through this module, so they all publish alike)."""
    low, high = INDEXED_CHARS_RANGE
    if not low <= chars <= high:
        raise SourceError(f"the indexed limit must be {low}..{high} characters (got {chars})")
    _limit[0] = chars


def indexed_limit() -> int:
    return _limit[0]


def head_bytes(chars: int) -> int:
    """Enough bytes to hold `chars` + 1 characters whatever the encoding width (<= 4 bytes
    each), plus a BOM and an incomplete trailing sequence held back by the incremental decoder."""
    return 4 * (chars + 1) + 8


SkipReason = Literal[
    "binary", "vanished", "symlink", "not-regular", "permission", "unreadable", "undecodable-name"
]


@dataclass(frozen=True, slots=True)
class WalkEntry:
    """A file found by discovery: what the stat fast path compares."""

    path: str  # repo-relative, '/'-separated
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class FileSnapshot:
    """One read of one file: everything a `FileUpsert` needs except the repo and the clock."""

    path: str
    size: int  # bytes hashed
    mtime_ns: int  # from fstat just before reading
    digest: str
    language: str
    body: str
    truncated: bool
    binary: bool
    decode_errors: bool
    read_started_ns: int  # wall clock before open: the fast path's "racy" anchor


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file that was found but is not published (and why), instead of an exception."""

    path: str
    reason: SkipReason
    detail: str = ""


ReadResult = FileSnapshot | Skipped


_encodable = utf8_path  # names that are not UTF-8 cannot become log keys: skipped


_Child = tuple[str, bool, int, int]  # (rel path, is_dir, size, mtime_ns)
# A directory that vanished or was swapped for a symlink is not "unreadable": it is not there.
_GONE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP})


def _children(
    root: str,
    rel_dir: str,
    rules: PathFilter,
    unreadable: list[str] | None = None,
    passed_over: list[Skipped] | None = None,
) -> list[_Child]:
    """The unfiltered entries of one directory in an order that makes the walk ordinal.

    A directory sorts as `name/`, so `a-b` (0x2d) precedes `a/x` (0x2f) exactly as the full
    paths compare; that lets the walk stream in sorted order without collecting everything.
    The directory is opened beneath the root without following symlinks and files are
    stat'ed relative to it, so a swapped parent never lists another tree. A directory that
    cannot be listed for lack of permission (or an I/O error) is added to `unreadable`; a
    symlink or a special file (fifo, socket, device) the filters keep is added to
    `passed_over`, so a walk's caller can count what it never reads.
    """
    found: list[tuple[str, _Child]] = []
    try:
        with dir_beneath(root, rel_dir) as dir_fd, os.scandir(dir_fd) as it:
            for entry in it:
                rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
                try:
                    if not _encodable(entry.name):
                        _pass_over_undecodable(
                            rel, entry.is_dir(follow_symlinks=False), rules, passed_over
                        )
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        found.append((entry.name + "/", (rel, True, 0, 0)))
                        continue
                    if rules.skip_file(rel):
                        continue
                    if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                        if passed_over is not None:  # never content: counted, not read
                            reason: SkipReason = "symlink" if entry.is_symlink() else "not-regular"
                            passed_over.append(Skipped(rel, reason))
                        continue
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                found.append((entry.name, (rel, False, st.st_size, st.st_mtime_ns)))
    except OSError as exc:  # unreadable, vanished or swapped: nothing below it is visible
        if unreadable is not None and exc.errno not in _GONE:
            unreadable.append(rel_dir or ".")
        return []
    found.sort(key=lambda item: item[0])
    return [child for _key, child in found]


def _pass_over_undecodable(
    rel: str, is_dir: bool, rules: PathFilter, passed_over: list[Skipped] | None
) -> None:
    """A name that is not UTF-8 cannot be a log key, so it is left out, but counted (it was
    left out without a word): once for a file, once for a directory and all below it. The
    filters see it with U+FFFD for each bad byte (RE2 matches UTF-8 only)."""
    shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if passed_over is not None and not (rules.skip_dir if is_dir else rules.skip_file)(shown):
        passed_over.append(Skipped(shown, "undecodable-name"))


def check_root(root: Path) -> str:
    """The root as a string, or SourceError when it is not a readable directory."""
    root_str = os.fspath(root)
    try:
        if not stat.S_ISDIR(os.stat(root_str).st_mode):
            raise SourceError(f"workspace root {root_str!r} is not a directory")
    except OSError as exc:
        raise SourceError(f"workspace root {root_str!r} cannot be read: {exc.strerror}") from exc
    return root_str


def walk(
    root: Path,
    filters: WalkFilters,
    *,
    path_filter: PathFilter | None = None,
    start: str = "",
    unreadable: list[str] | None = None,
    passed_over: list[Skipped] | None = None,
) -> Iterator[WalkEntry]:
    """Discover the files of `root` that pass the filters, in ordinal order of their path.

    Only stats files; reading is `read_file`'s job. Ignored directories are pruned, `.git` and
    symlinks are skipped. Entries that vanish or cannot be listed mid-walk are silently left
    out (a later walk or watcher event catches up). Raises SourceError if the root is unusable.
    `start` walks one subdirectory only (the caller has checked that it is not filtered).
    Directories that exist but cannot be listed are appended to `unreadable`; a root that
    cannot be listed is a SourceError, never an empty repository. Symlinks and special files
    the filters keep are appended to `passed_over` (reasons `symlink`, `not-regular`).
    """
    root_str = check_root(root)
    rules = path_filter if path_filter is not None else PathFilter(root, filters)
    denied: list[str] = []
    stack = [iter(_children(root_str, start, rules, denied, passed_over))]
    if denied and not start:
        raise SourceError(f"workspace root {root_str!r} cannot be read: permission denied")
    if unreadable is not None:
        unreadable.extend(denied)
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        rel, is_dir, size, mtime_ns = item
        if not is_dir:
            yield WalkEntry(rel, size, mtime_ns)
        elif not rules.skip_dir(rel):
            stack.append(iter(_children(root_str, rel, rules, unreadable, passed_over)))


def _lstat_inside(root: Path, rel_path: str) -> os.stat_result | None:
    """lstat of `rel_path` reached through real directories only (no symlink on the way),
    else None. Also refuses names a walk would never produce (not valid UTF-8)."""
    if not all(_encodable(part) for part in rel_path.split("/")):
        return None
    return lstat_beneath(root, rel_path)


def lstat_entry(root: Path, rel_path: str, path_filter: PathFilter) -> WalkEntry | None:
    """The entry for one path seen out of walk order, or None when a walk would not yield it."""
    if path_filter.excluded(rel_path, is_dir=False):
        return None
    st = _lstat_inside(root, rel_path)
    if st is None or not stat.S_ISREG(st.st_mode):
        return None
    return WalkEntry(rel_path, st.st_size, st.st_mtime_ns)


def is_walkable_dir(root: Path, rel_dir: str, path_filter: PathFilter) -> bool:
    """Whether a walk would descend into `rel_dir` (a real, unfiltered directory)."""
    if path_filter.excluded(rel_dir, is_dir=True):
        return False
    st = _lstat_inside(root, rel_dir)
    return st is not None and stat.S_ISDIR(st.st_mode)


def _skip_for(rel_path: str, exc: OSError) -> Skipped:
    if exc.errno == errno.ENOENT or exc.errno == errno.ENOTDIR:
        return Skipped(rel_path, "vanished")
    if exc.errno == errno.ELOOP:
        return Skipped(rel_path, "symlink")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return Skipped(rel_path, "permission", exc.strerror or "")
    return Skipped(rel_path, "unreadable", exc.strerror or str(exc))


def read_file(root: Path | str, rel_path: str, *, exclude_binary: bool = True) -> ReadResult:
    """Read one file once: binary sniff, full-content digest, bounded body. Never raises OSError.

    Binary (schemas.events.looks_binary: a NUL in the first BINARY_SNIFF_BYTES, or a PDF)
    with `exclude_binary` stops after the sniff and returns Skipped("binary"); a kept binary
    gets a digest and an empty body.
    """
    started = time.time_ns()
    chars = indexed_limit()
    head_limit = head_bytes(chars)
    try:
        fd, st = open_file_beneath(root, rel_path)
    except NotRegularFile:
        return Skipped(rel_path, "not-regular")
    except OSError as exc:
        return _skip_for(rel_path, exc)
    try:
        parts: list[bytes] = []
        have = 0
        eof = False
        while have < head_limit:
            # Size the read by the stat so small files cost one short read plus the EOF read.
            want = max(st.st_size + 1 - have, _MIN_READ_BYTES)
            chunk = os.read(fd, min(head_limit - have, want, _CHUNK_BYTES))
            if not chunk:
                eof = True
                break
            parts.append(chunk)
            have += len(chunk)
        head = parts[0] if len(parts) == 1 else b"".join(parts)
        binary = looks_binary(head)
        if binary and exclude_binary:
            return Skipped(rel_path, "binary")
        hasher = xxhash.xxh3_128(head)
        size = len(head)
        while not eof:
            if size >= _MAX_HASH_BYTES:
                hasher.update(b"\0past %d: size %d, mtime %d" % (size, st.st_size, st.st_mtime_ns))
                size = max(size, st.st_size)
                break
            chunk = os.read(fd, min(_CHUNK_BYTES, _MAX_HASH_BYTES - size))
            if not chunk:
                break
            hasher.update(chunk)
            size += len(chunk)
    except OSError as exc:
        return _skip_for(rel_path, exc)
    finally:
        os.close(fd)
    body, decode_errors = ("", False) if binary else decode_text(head, eof, chars)
    return FileSnapshot(
        path=rel_path,
        size=size,
        mtime_ns=st.st_mtime_ns,
        digest=DIGEST_PREFIX + hasher.hexdigest(),
        language=language_for_path(rel_path),
        body=body[:chars],
        truncated=len(body) > chars,
        binary=binary,
        decode_errors=decode_errors,
        read_started_ns=started,
    )


def to_event(repo_id: str, snapshot: FileSnapshot, observed_at: float) -> FileUpsert:
    """The `files.v1` value for a snapshot (key: `schemas.events.file_key(repo_id, path)`)."""
    return FileUpsert(
        repo_id=repo_id,
        path=snapshot.path,
        digest=snapshot.digest,
        size=snapshot.size,
        mtime_ns=snapshot.mtime_ns,
        language=snapshot.language,
        body=snapshot.body,
        truncated=snapshot.truncated,
        binary=snapshot.binary,
        decode_errors=snapshot.decode_errors,
        observed_at=observed_at,
    )
