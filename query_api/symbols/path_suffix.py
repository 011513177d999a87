"""A path written without its leading folders, and the indexed files it may mean.

Agents name a Python module's file as its package imports it (`jinja2/utils.py` for
`src/jinja2/utils.py`), or by its name alone (`utils.py`): outline and related take paths
from the repository root, and on pallets/jinja both answered "not indexed" with no note,
which reads as a file the index left out. A whole trailing part of an indexed path (after a
`/`) names the file; `voice.py` is no part of `invoice.py`.

The other way round, agents write a path with more leading folders than the repository's:
the checkout's folder (`src/zapcore/level.go` for uber-go/zap checked out as `src`), or the
project's name in front (`zap/zapcore/level.go`). On uber-go/zap outline answered `exists:
false` with no note; the longest end of the path that is an indexed file is named. A path
in another case (`ZAPCORE/LEVEL.GO`) names the indexed files it is, casefolded. A misspelt
path (`uvicorn/middleware/proxy_header.py` for proxy_headers.py, on encode/uvicorn) names the
indexed file it is closest to: a name a letter or two away in the same folder, or the same
name in a folder a letter away.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

CLOSE_NAME = 0.8  # difflib's ratio: `invoices.py`/`invoice.py` 0.95, `nope.py` 0.59
CLOSE_FOLDER = 0.85  # `src/bliling` and `src/billing` 0.91; `src/orders` 0.57


def files_ending_with(path: str, indexed: Iterable[str]) -> list[str]:
    """The indexed paths that end with `path` after a folder boundary, in path order."""
    if not path or path.startswith("/"):
        return []
    tail = "/" + path
    return sorted(p for p in indexed if p.endswith(tail))


def suffix_note(path: str, files: list[str], examples: int) -> str | None:
    """The note for a path that is the end of `files` (files_ending_with), if any."""
    if not files:
        return None
    if len(files) == 1:
        return (
            f"{path} is no path from the repository root; the indexed file {files[0]} "
            "ends with it: name that file"
        )
    named = ", ".join(files[:examples])
    more = f" and {len(files) - examples} more" if len(files) > examples else ""
    return (
        f"{path} is no path from the repository root; indexed files ending with it are "
        f"{named}{more}: name one"
    )


def indexed_tail(path: str, is_indexed: Callable[[str], bool]) -> str | None:
    """The longest end of `path` after one or more of its leading folders that is an indexed
    file (`is_indexed`), if any."""
    if not path or path.startswith("/"):
        return None
    parts = path.split("/")
    for start in range(1, len(parts)):
        tail = "/".join(parts[start:])
        if tail and is_indexed(tail):
            return tail
    return None


def tail_note(path: str, tail: str | None) -> str | None:
    """The note for a path whose end `tail` (indexed_tail) is an indexed file, if any."""
    if tail is None:
        return None
    dropped = path[: len(path) - len(tail)]
    return (
        f"{path} is no path from the repository root; without its leading {dropped} it is "
        f"the indexed file {tail}: name that file"
    )


def files_in_another_case(path: str, indexed: Iterable[str]) -> list[str]:
    """The indexed paths that are `path` casefolded (and not `path` itself), in path order."""
    if not path:
        return []
    folded = path.casefold()
    return sorted(p for p in indexed if p != path and p.casefold() == folded)


def case_note(path: str, files: list[str]) -> str | None:
    """The note for a path that is `files` (files_in_another_case) in another case, if any."""
    if not files:
        return None
    return f"{path} is no indexed file; {', '.join(files)} is, in another case: " + (
        "name that file" if len(files) == 1 else "name one"
    )


def closest_file(path: str, in_folder: Iterable[str], same_name: Iterable[str]) -> str | None:
    """The indexed file a misspelt `path` most likely means: of the files in its folder
    (`in_folder`), the one whose name is closest to its name; else, of the files with its
    name (`same_name`), the one whose folder is closest to its folder. None when none is
    close (CLOSE_NAME, CLOSE_FOLDER)."""
    folder, _, name = path.rpartition("/")
    by_name = {p.rpartition("/")[2]: p for p in in_folder if p.rpartition("/")[0] == folder}
    close = difflib.get_close_matches(name, list(by_name), n=1, cutoff=CLOSE_NAME)
    if close:
        return by_name[close[0]]
    by_folder = {p.rpartition("/")[0]: p for p in same_name if p.rpartition("/")[2] == name}
    close = difflib.get_close_matches(folder, list(by_folder), n=1, cutoff=CLOSE_FOLDER)
    return by_folder[close[0]] if close else None


def close_note(path: str, found: str | None) -> str | None:
    """The note for a misspelt path closest to the indexed file `found`, if any."""
    if found is None:
        return None
    return f"{path} is no indexed file; the closest is {found}: name that file if it is the one"
