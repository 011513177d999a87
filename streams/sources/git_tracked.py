"""The files git tracks in a workspace, which no `.gitignore` hides from git (nor from us).

Git ignores only untracked files: a file committed before a rule named it, or added with
`git add -f`, stays in the repository. So when the workspace root holds `.git`, the walk asks
git's index for the tracked paths (`git ls-files`; no library for the index format is in the
dependencies) and lets those, and the directories on the way to them, through the ignore
rules. Include and exclude globs still apply: they are the caller's own choice.

`--git-dir`/`--work-tree` name the root's own repository, so git never walks up into an
enclosing one; `core.fsmonitor` is off so no command configured in the repository runs;
`ls-files` reads the index only and starts no hook or filter. When git is missing or the index
cannot be read, the answer is empty (ignore rules alone, as before) and a warning says why.
"""

from __future__ import annotations

import logging
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

GIT_TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class TrackedFiles:
    """Tracked file paths (repo-relative, '/'-separated) and every directory above one."""

    files: frozenset[str] = frozenset()
    dirs: frozenset[str] = field(default_factory=frozenset)
    stamp: tuple[int, int] | None = None  # git's index file (mtime, size) when it was read


NONE_TRACKED = TrackedFiles()


def _with_parents(paths: frozenset[str]) -> frozenset[str]:
    dirs: set[str] = set()
    for path in paths:
        parent = path.rpartition("/")[0]
        while parent and parent not in dirs:
            dirs.add(parent)
            parent = parent.rpartition("/")[0]
    return frozenset(dirs)


def index_stamp(root: Path | str) -> tuple[int, int] | None:
    """(mtime, size) of the root's git index, None without one; git rewrites the file on every
    change to it (add, rm, commit, and a status that refreshes it)."""
    try:
        st = os.lstat(os.path.join(os.fspath(root), ".git", "index"))
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def tracked_files(root: Path | str) -> TrackedFiles:
    """The files git's index lists for the repository at `root` (NONE_TRACKED when `root`
    has no `.git` of its own, or git cannot say)."""
    root_str = os.fspath(root)
    git_dir = os.path.join(root_str, ".git")
    if not os.path.lexists(git_dir):
        return NONE_TRACKED
    stamp = index_stamp(root_str)  # before reading: a change meanwhile shows as a new stamp
    command = [
        "git",
        f"--git-dir={git_dir}",
        f"--work-tree={root_str}",
        "-c",
        "core.fsmonitor=false",
        "ls-files",
        "-z",
        "--cached",
    ]
    try:
        proc = subprocess.run(
            command,
            cwd=root_str,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("%s: cannot list git's tracked files (%s); ignore rules alone apply", root, exc)
        return NONE_TRACKED
    if proc.returncode != 0:
        reason = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        log.warning(
            "%s: cannot list git's tracked files (%s); ignore rules alone apply",
            root_str,
            reason[-1] if reason else f"git exited {proc.returncode}",
        )
        return NONE_TRACKED
    files = frozenset(
        name.decode("utf-8", "surrogateescape") for name in proc.stdout.split(b"\0") if name
    )
    return TrackedFiles(files, _with_parents(files), stamp)
