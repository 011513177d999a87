"""The workspace guard (spec §4.5): every path a tool takes must resolve inside the root.

Lexical `..` is normalised first, then every symlink component is expanded, then the result
must equal the root or start with root + separator (so `/ws-other` is not inside `/ws`).
Without a root the guard refuses everything, and path-taking tools are not even listed.
"""

from __future__ import annotations

import os
from pathlib import Path

from query_api.errors import GuardError

_MAX_PATH_CHARS = 4096


class WorkspaceGuard:
    def __init__(self, root: Path | str | None) -> None:
        text = str(root).strip() if root is not None else ""
        self.root: Path | None = Path(os.path.realpath(text)) if text else None
        # The root as written, for the lexical check of requests spelled through it.
        self._lexical_root = Path(os.path.normpath(os.path.abspath(text))) if text else None

    @property
    def enforcing(self) -> bool:
        return self.root is not None

    def resolve(self, requested: str) -> Path:
        """The canonical path for `requested`, or GuardError saying why it is refused."""
        if self.root is None:
            raise GuardError(
                "no workspace root is configured, so path-taking tools are disabled; "
                "start the server with a workspace root (e.g. `repocontext serve PATH`)"
            )
        if not isinstance(requested, str) or not requested.strip():
            raise GuardError("path must be a non-empty string")
        if len(requested) > _MAX_PATH_CHARS:
            raise GuardError(f"path is longer than {_MAX_PATH_CHARS} characters")
        if any(ord(ch) < 32 for ch in requested):
            raise GuardError("path contains a control character (NUL, newline, ...)")
        base = self._lexical_root or self.root
        candidate = requested if os.path.isabs(requested) else os.path.join(base, requested)
        lexical = os.path.normpath(candidate)
        if not (self._inside(Path(lexical)) or self._inside(Path(lexical), self._lexical_root)):
            raise GuardError(f"path {requested!r} is outside the workspace root {self.root}")
        resolved = Path(os.path.realpath(lexical))
        if not self._inside(resolved):
            # the link's target is not said: a reader would learn the host's layout
            raise GuardError(
                f"path {requested!r} resolves through a symbolic link to a place outside "
                f"the workspace root {self.root}"
            )
        return resolved

    def _inside(self, path: Path, root_path: Path | None = None) -> bool:
        root_path = root_path or self.root
        assert root_path is not None
        root = str(root_path)
        text = str(path)
        return text == root or text.startswith(root.rstrip(os.sep) + os.sep)
