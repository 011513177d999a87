"""Open paths beneath a repository root without following a symlink at any component.

`open(root + "/a/b/c", O_NOFOLLOW)` guards only `c`: if `a` or `b` is swapped for a symlink
between the walk and the read (`mv a a_real; ln -s /outside a`), the kernel follows it and the
read leaves the root. Here every path is opened by descending from the root one component at
a time, each directory relative to its parent's descriptor with O_NOFOLLOW|O_DIRECTORY, and
the leaf relative to the last one with O_NOFOLLOW. A component that is a symlink at that
moment fails the open (ELOOP/ENOTDIR) instead of being followed, so whatever is read was,
when it was opened, a regular file reached through real directories under the root.

The root itself is the registered, already-resolved directory and is opened as given.
Every read of repository content (walk, read, `.gitignore`, watcher, `changed`) goes through
this module.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_ROOT_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO planted in the tree must not block the reader forever.
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotRegularFile(OSError):
    """The leaf exists but is not a regular file (directory, FIFO, socket, device)."""


def split_relative(rel_path: str) -> list[str]:
    """The components of a repo-relative '/'-separated path; OSError(EINVAL) for a name that
    could step out or is not a name (empty, '.', '..', NUL)."""
    if not rel_path:
        return []
    parts = rel_path.split("/")
    for part in parts:
        if part in ("", ".", "..") or "\x00" in part:
            raise OSError(errno.EINVAL, f"not a repository-relative path: {rel_path!r}")
    return parts


def _open_component(name: str, dir_fd: int) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except NotADirectoryError:
        # Linux answers O_NOFOLLOW|O_DIRECTORY on a symlink with ENOTDIR; say ELOOP then, so
        # callers report "symlink" rather than "vanished".
        if stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
            raise OSError(errno.ELOOP, f"{name!r} is a symlink") from None
        raise


def open_dir_beneath(root: Path | str, rel_dir: str) -> int:
    """A descriptor of directory `root/rel_dir` ("" = the root) reached without symlinks.

    Raises OSError: ELOOP/ENOTDIR when a component is a symlink or not a directory now.
    """
    parts = split_relative(rel_dir)
    fd = os.open(root, _ROOT_FLAGS)
    try:
        for part in parts:
            child = _open_component(part, fd)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def dir_beneath(root: Path | str, rel_dir: str) -> Iterator[int]:
    """`open_dir_beneath` as a context manager that closes the descriptor."""
    fd = open_dir_beneath(root, rel_dir)
    try:
        yield fd
    finally:
        os.close(fd)


def open_file_beneath(root: Path | str, rel_path: str) -> tuple[int, os.stat_result]:
    """(descriptor, fstat) of the regular file `root/rel_path`, no symlink at any component.

    Raises OSError (ELOOP: a component is a symlink; ENOENT/ENOTDIR: gone or swapped) or
    NotRegularFile; the caller owns and closes the descriptor.
    """
    parent, _, name = rel_path.rpartition("/")
    if not name:
        raise OSError(errno.EINVAL, f"not a repository-relative path: {rel_path!r}")
    split_relative(name)
    with dir_beneath(root, parent) as dir_fd:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(errno.EINVAL, f"not a regular file: {rel_path!r}")
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def lstat_beneath(root: Path | str, rel_path: str) -> os.stat_result | None:
    """lstat of `root/rel_path` reached through real directories only; None if not there so."""
    parent, _, name = rel_path.rpartition("/")
    try:
        split_relative(rel_path)
        with dir_beneath(root, parent) as dir_fd:
            return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return None
