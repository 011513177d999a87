"""The data directory is private: 0700, its files 0600 (docs/security.md).

`log.db` holds every indexed file's body and all agent memory, so nobody but the service's
own user may read anything in the data directory. New files are private because the CLI
runs with umask 077; `secure_data_dir` creates the directory 0700 and takes group and other
access away from a directory (and everything in it) that an older version or an operator left
open, saying so once in the log. Symlinks are never followed, and a file the service cannot
chmod (another owner, a read-only mount) is reported, not fatal.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from schemas.errors import RepoContextError

log = logging.getLogger(__name__)

PRIVATE_UMASK = 0o077


class DataDirUnusable(RepoContextError):
    """The data directory cannot be created where the settings put it."""


def _tighten(root: Path) -> tuple[int, list[str]]:
    """Drop group/other bits from `root` and everything under it: (changed, refused paths)."""
    changed, refused = 0, []
    paths = [str(root)]
    for top, dirs, files in os.walk(root, followlinks=False):
        paths += [os.path.join(top, name) for name in dirs + files]
    for path in paths:
        try:
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode) or not mode & 0o077:
                continue
            os.chmod(path, stat.S_IMODE(mode) & ~0o077)
            changed += 1
        except FileNotFoundError:
            continue  # removed while we walked (a WAL checkpoint, a temp file)
        except OSError:
            refused.append(path)
    return changed, refused


def secure_data_dir(path: Path, *, quiet: bool = False) -> Path:
    """Create `path` 0700, or make an existing one private; returns `path`. `quiet` is for
    the pass right after the service created its own files (nothing an operator should see)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:  # said as the setting it came from, not as a bare errno
        raise DataDirUnusable(
            f"cannot create the data directory {path} (--data-dir or REPOCONTEXT_DATA_DIR): "
            f"{exc.strerror or exc}"
        ) from None
    changed, refused = _tighten(path)
    if changed and not quiet:
        log.warning(
            "data directory %s was readable by group or others: removed that access from "
            "%d files and directories (it holds every indexed file and all memory)",
            path,
            changed,
        )
    if refused:
        log.warning(
            "data directory %s: cannot make %d paths private (e.g. %s); fix their owner",
            path,
            len(refused),
            refused[0],
        )
    return path


def holds_no_log(data_dir: Path, log_url: str | None) -> bool:
    """True when the embedded log of `data_dir` was never written: a read-only command
    (`topics`, `memory export`) then creates nothing. Opening the log created a mistyped
    --data-dir, and `memory export` wrote an empty backup of it with exit 0."""
    return log_url is None and not (data_dir / "log.db").exists()
