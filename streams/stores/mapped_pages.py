"""Hand back the resident pages of a store's memory-mapped files.

The in-process Qdrant shard maps its files (vectors, payload indexes, its write-ahead log),
and every page it ever touched stays in the process's RSS: a WAL replay, an exact search
over every vector, a payload index populated at load. On a mid-sized repository that is
tens of MiB of a server's RSS once the backfill is done (docs/semantic.md), though the pages
are the kernel's page cache and cost nothing to fault back in.

`drop_mapped_pages` tells the kernel the process no longer needs those pages resident
(madvise MADV_DONTNEED) for every SHARED mapping of a file under a folder. For a shared file
mapping that loses nothing: the data lives in the page cache and the file (dirty pages are
written back as usual), and the next access maps the page again. Private mappings are left
alone: there DONTNEED would discard the process's own copy-on-write changes.
"""

from __future__ import annotations

import ctypes
import logging
from pathlib import Path

log = logging.getLogger(__name__)

MADV_DONTNEED = 4


def _madvise() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    try:
        fn = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    fn.restype = ctypes.c_int
    return fn


def shared_mappings(folder: Path, maps: str = "/proc/self/maps") -> list[tuple[int, int]]:
    """(start, end) of this process's shared mappings of files under `folder`."""
    prefix = str(folder.resolve()).rstrip("/") + "/"
    out: list[tuple[int, int]] = []
    try:
        with open(maps, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.split(maxsplit=5)
                if len(parts) < 6 or not parts[5].startswith(prefix) or parts[1][3] != "s":
                    continue
                start, _, end = parts[0].partition("-")
                out.append((int(start, 16), int(end, 16)))
    except OSError:  # no /proc (not Linux)
        return []
    return out


def drop_mapped_pages(folder: Path) -> int:
    """Drop the resident pages of the shared mappings of files under `folder`; the bytes
    of address space advised (0 where the platform has no /proc or madvise)."""
    madvise = _madvise()
    if madvise is None:
        return 0
    advised = 0
    for start, end in shared_mappings(folder):
        if madvise(start, end - start, MADV_DONTNEED) == 0:
            advised += end - start
        else:
            log.debug("madvise(DONTNEED) failed on %x-%x: errno %d", start, end, ctypes.get_errno())
    return advised
