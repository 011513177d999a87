"""The files git tracks in a workspace, which no `.gitignore` hides from git (nor from us).

Git ignores only untracked files: a file committed before a rule named it, or added with
`git add -f`, stays in the repository. So when the repository's root is in a git work tree
(it holds `.git`, or a directory above it does: a package of a monorepo), the walk asks git's
index for the tracked paths under the root (`git ls-files`; no library for the index format is
in the dependencies) and lets those, and the directories on the way to them, through the
ignore rules. Include and exclude globs still apply: they are the caller's own choice.

The work tree is the nearest directory at or above the root holding `.git` (a directory, or
the file a worktree or submodule has), as git finds it. `--git-dir`/`--work-tree` name it, so
git looks nowhere else; `core.fsmonitor` is off so no command configured in the repository
runs; `ls-files` reads the index only and starts no hook or filter. When git is missing or the
index cannot be read, the answer is empty (ignore rules alone) and a warning says why.
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


@dataclass(frozen=True, slots=True)
class GitCheckout:
    """The git work tree a walk's root is in."""

    work_tree: str  # the nearest directory at or above the root that holds `.git`
    dot_git: str  # that `.git`: the repository, or a file naming it (worktree, submodule)
    prefix: str  # the root relative to work_tree, '/'-separated; "" when they are the same


def is_bare_repository(root: Path | str) -> bool:
    """A git repository without a work tree (`git clone --bare`, a server's `x.git`): its
    files are git's own (objects, refs, hooks), not the code; git-source serves its commits.
    Told by what git needs of one: HEAD, objects/ and refs/ at the top, no `.git` below it."""
    top = Path(root)
    try:
        return (
            (top / "HEAD").is_file()
            and (top / "objects").is_dir()
            and (top / "refs").is_dir()
            and not (top / ".git").exists()
        )
    except OSError:  # an unreadable directory: the walk reports why it cannot be read
        return False


def find_checkout(root: Path | str) -> GitCheckout | None:
    """The work tree holding `root`, None when no directory at or above it holds `.git`."""
    start = os.path.abspath(os.fspath(root))
    current = start
    while True:
        dot_git = os.path.join(current, ".git")
        if os.path.lexists(dot_git):
            prefix = os.path.relpath(start, current)
            prefix = "" if prefix == "." else prefix.replace(os.sep, "/")
            return GitCheckout(current, dot_git, prefix)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _index_path(checkout: GitCheckout) -> str | None:
    """The index file of `checkout`: in `.git`, or in the directory a `.git` file names."""
    if os.path.isdir(checkout.dot_git):
        return os.path.join(checkout.dot_git, "index")
    try:
        with open(checkout.dot_git, encoding="utf-8", errors="replace") as handle:
            first = handle.readline(4096).strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    named = first.removeprefix("gitdir:").strip()
    return os.path.join(os.path.dirname(checkout.dot_git), named, "index")


def index_stamp(root: Path | str) -> tuple[int, int] | None:
    """(mtime, size) of the git index of the work tree holding `root`, None without one; git
    rewrites the file on every change to it (add, rm, commit, a status that refreshes it)."""
    checkout = find_checkout(root)
    index = None if checkout is None else _index_path(checkout)
    if index is None:
        return None
    try:
        st = os.lstat(index)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def tracked_files(root: Path | str) -> TrackedFiles:
    """The files under `root` git's index lists, relative to `root` (NONE_TRACKED when no
    directory at or above `root` holds `.git`, or git cannot say)."""
    root_str = os.fspath(root)
    checkout = find_checkout(root_str)
    if checkout is None:
        return NONE_TRACKED
    stamp = index_stamp(root_str)  # before reading: a change meanwhile shows as a new stamp
    command = [  # run in `root`: git lists the files below it, relative to it
        "git",
        f"--git-dir={checkout.dot_git}",
        f"--work-tree={checkout.work_tree}",
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
