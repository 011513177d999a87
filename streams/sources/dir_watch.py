"""inotify watches on exactly the directories a walk would visit: no symlink, nothing ignored.

watchfiles (Rust notify) watches a tree recursively and follows symlinks: a repository
holding `ln -s / rootlink` made it place thousands of watches outside the repository and
crash-loop on /proc. Here the watch set is decided by our own rules: a directory is watched
only if the walk would descend into it (a real directory reached without symlinks, not
`.git`, not ignored). Each watch is placed on a descriptor opened through `safe_open`
(`/proc/self/fd/N`), so the inode watched is the one that was checked; a new directory is
added when its creation is seen, and a `.gitignore` change re-derives the whole set.

Linux only (inotify); the watcher falls back to periodic reconciles elsewhere.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from inotify_simple import INotify, flags

from streams.errors import SourceError
from streams.sources.ignore import PathFilter
from streams.sources.safe_open import dir_beneath

MAX_WATCHED_DIRS = 100_000  # more than this and the repository cannot be watched (not ready)
_MASK = (
    flags.CREATE
    | flags.DELETE
    | flags.MODIFY
    | flags.CLOSE_WRITE
    | flags.ATTRIB
    | flags.MOVED_FROM
    | flags.MOVED_TO
    | flags.DELETE_SELF
    | flags.MOVE_SELF
    | flags.ONLYDIR
    | flags.EXCL_UNLINK
)  # no DONT_FOLLOW: the path is /proc/self/fd/N, whose magic link must lead to the checked fd
_NEW_DIR = flags.CREATE | flags.MOVED_TO
_GONE_DIR = flags.DELETE | flags.MOVED_FROM
_SELF_GONE = flags.DELETE_SELF | flags.MOVE_SELF | flags.IGNORED


class WatchError(SourceError):
    """The repository cannot be watched (root gone, watch limit reached): not ready."""


@dataclass
class Collected:
    """What one debounced read saw: changed repo-relative paths, or an overflow."""

    paths: set[str] = field(default_factory=set)
    overflow: bool = False  # events were lost: only a full reconcile is safe


class DirectoryWatch:
    """The inotify watch set of one repository root; all methods block (run them off-loop)."""

    def __init__(
        self, root: Path, path_filter: PathFilter, *, max_dirs: int = MAX_WATCHED_DIRS
    ) -> None:
        self.root = root
        self.path_filter = path_filter
        self.max_dirs = max_dirs
        self._inotify = INotify()
        self._by_wd: dict[int, str] = {}
        self._by_rel: dict[str, int] = {}

    @property
    def watched(self) -> set[str]:
        """Repo-relative directories watched now ("" = the root)."""
        return set(self._by_rel)

    def close(self) -> None:
        self._inotify.close()

    def _add(self, rel_dir: str) -> list[str]:
        """Watch one directory; its subdirectories (names) for the caller to consider."""
        if len(self._by_rel) >= self.max_dirs and rel_dir not in self._by_rel:
            raise WatchError(f"{self.root}: more than {self.max_dirs} directories to watch")
        try:
            with dir_beneath(self.root, rel_dir) as fd:
                wd = self._inotify.add_watch(f"/proc/self/fd/{fd}", _MASK)
                subdirs = [e.name for e in os.scandir(fd) if e.is_dir(follow_symlinks=False)]
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EMFILE, errno.ENOMEM):
                raise WatchError(f"{self.root}: inotify limit reached ({exc.strerror})") from exc
            if not rel_dir:
                raise WatchError(f"{self.root}: cannot watch the root ({exc.strerror})") from exc
            return []  # vanished, swapped for a symlink, unreadable: a walk skips it too
        old = self._by_rel.get(rel_dir)
        if old is not None and old != wd:
            self._by_wd.pop(old, None)
        self._by_wd[wd] = rel_dir
        self._by_rel[rel_dir] = wd
        return subdirs

    def add_tree(self, rel_dir: str = "") -> None:
        """Watch `rel_dir` and every directory below it that a walk would visit."""
        if rel_dir and self.path_filter.excluded(rel_dir, is_dir=True):
            return
        pending = [rel_dir]
        while pending:
            current = pending.pop()
            for name in self._add(current):
                child = f"{current}/{name}" if current else name
                if not self.path_filter.skip_dir(child):
                    pending.append(child)

    def _drop_tree(self, rel_dir: str) -> None:
        prefix = rel_dir + "/"
        for rel in [r for r in self._by_rel if r == rel_dir or r.startswith(prefix) or not rel_dir]:
            wd = self._by_rel.pop(rel)
            self._by_wd.pop(wd, None)
            with contextlib.suppress(OSError):  # the kernel already dropped it (deleted)
                self._inotify.rm_watch(wd)

    def resync(self) -> None:
        """Re-derive the watch set from scratch (the ignore rules changed)."""
        self._drop_tree("")
        self.add_tree("")

    def _handle(self, wd: int, mask: int, name: str, seen: Collected) -> None:
        base = self._by_wd.get(wd)
        if base is None:
            return
        if not name:  # the watched directory itself
            if mask & _SELF_GONE:
                self._by_wd.pop(wd, None)
                if self._by_rel.get(base) == wd:
                    del self._by_rel[base]
                if not base:
                    raise WatchError(f"{self.root}: the repository root was removed or moved")
                seen.paths.add(base)
            return
        rel = f"{base}/{name}" if base else name
        seen.paths.add(rel)
        if mask & flags.ISDIR and mask & _GONE_DIR:
            self._drop_tree(rel)  # a moved directory keeps its watch under the old name
        if mask & flags.ISDIR and mask & _NEW_DIR:
            self.add_tree(rel)

    def collect(self, idle_ms: int, step_ms: int, debounce_ms: int) -> Collected:
        """Wait up to `idle_ms` for a first event, then gather until `step_ms` pass quietly
        or `debounce_ms` in all. Raises WatchError when watching cannot go on."""
        seen = Collected()
        events = list(self._inotify.read(timeout=idle_ms))
        started = time.monotonic()
        while events:
            for event in events:
                if event.mask & flags.Q_OVERFLOW:
                    seen.overflow = True
                    continue
                self._handle(event.wd, event.mask, event.name, seen)
            left_ms = debounce_ms - (time.monotonic() - started) * 1000
            if left_ms <= 0:
                break
            events = list(self._inotify.read(timeout=int(min(step_ms, left_ms)) or 1))
        return seen
