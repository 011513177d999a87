"""One normalisation for every tool argument that names a path inside a repository.

Agents spell the same file many ways: `src/app.py`, `./src/app.py`, `src\\app.py`,
`src/x/../app.py`, the absolute path they see on disk, or its `file://` URI (MCP names roots
and resources so). Outline, related, changed and refresh must all read them as the same
repo-relative path, and must refuse a path that leaves the repository with one clear message
instead of answering `exists: false` (spec §1.1 errors, §4.5 containment).
"""

from __future__ import annotations

import os
import posixpath
from urllib.parse import unquote, urlsplit

from query_api.errors import ToolInputError
from schemas.events import RepoRegistration

_SHOWN_CHARS = 200  # how much of a caller's path an error message repeats


def repo_relative(raw: str, root: str | None, argument: str = "path") -> str:
    """`raw` as a repo-relative POSIX path ('' for the root itself), or ToolInputError.

    `root` is the repository's indexed root on disk; an absolute path is accepted only inside
    it (as written, or once symlinks are expanded). Without a root (git sources) only relative
    paths are accepted. `argument` names the tool argument in error messages.
    """
    shown = raw[:_SHOWN_CHARS]
    if any(ord(ch) < 32 for ch in raw):
        raise ToolInputError(f"`{argument}`: {shown!r} contains a control character")
    text = raw.strip().replace("\\", "/")
    if text.lower().startswith("file://"):
        text = _file_uri_path(text, shown, argument)
    if not text:
        raise ToolInputError(f"`{argument}` is empty; give a path relative to the repository root")
    if posixpath.isabs(text):
        if root is None and posixpath.normpath(text) == "/":
            return ""  # with no root on disk, `/` can only mean the repository's own root
        if root is None:
            raise ToolInputError(
                f"`{argument}`: {shown!r} is absolute, but this repository has no root on disk "
                "(it is git-sourced); give a repo-relative path ('.' for the whole tree)"
            )
        inside = _relative_to_root(text, root)
        if inside is None:
            raise ToolInputError(_leaves(argument, shown, root))
        return inside
    norm = posixpath.normpath(text)
    if norm == ".." or norm.startswith("../"):
        raise ToolInputError(_leaves(argument, shown, root))
    return "" if norm == "." else norm


def path_in_repo(raw: str, registration: RepoRegistration, argument: str = "path") -> str:
    """repo_relative() against the registration's indexed root (none for git sources)."""
    root = registration.root if registration.source == "workspace" else None
    return repo_relative(raw, root, argument)


def _file_uri_path(uri: str, shown: str, argument: str) -> str:
    """The absolute path a `file://` URI names on this host (percent-escapes decoded), judged
    like any absolute path afterwards; a URI of another host names nothing here."""
    parts = urlsplit(uri)
    if parts.netloc.lower() not in ("", "localhost"):
        raise ToolInputError(
            f"`{argument}`: {shown!r} is a file URI of another host; give a repo-relative path"
        )
    path = unquote(parts.path)
    if any(ord(ch) < 32 for ch in path):
        raise ToolInputError(f"`{argument}`: {shown!r} contains a control character")
    return path or "/"


def _leaves(argument: str, shown: str, root: str | None) -> str:
    where = f": it is outside the indexed root {root}" if root else ""
    return f"`{argument}`: {shown!r} leaves the repository{where}; give a repo-relative path"


def _relative_to_root(absolute: str, root: str) -> str | None:
    """The part of `absolute` below `root`, lexically first, then with symlinks expanded."""
    lexical = posixpath.normpath(absolute)
    for candidate in (lexical, _real(lexical)):
        for base in (posixpath.normpath(root), _real(root)):
            prefix = base.rstrip("/") + "/"
            if candidate == base:
                return ""
            if candidate.startswith(prefix):
                return candidate[len(prefix) :]
    return None


def _real(path: str) -> str:
    """`path` with symlinks expanded; as written when the OS cannot say (a name it cannot
    encode, a loop), so such a path is judged lexically."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path
