"""Who may bind a repository id to a directory (add_repo, bootstrap; docs/security.md).

Binding decides what every later read of the id returns, so it is an access decision of its
own, not only the `admin` grant on the id that the tool gate checks:

1. the caller holds `admin` on the id it binds (checked here again on the id derived from the
   resolved directory, which the gate only approximates from the path's last segment);
2. an id already bound is never re-pointed to another directory by a tool: the caller removes
   it first (remove_repo also deletes its memory, a decision a human makes knowingly);
3. the directory must not be, contain or lie inside a directory that backs a repository the
   caller may not read: otherwise binding it under an id the caller controls would read that
   repository's files. The refusal names no other repository.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from query_api.access.auth import Principal
from query_api.errors import AccessDenied, ConflictError


def overlaps(a: Path, b: Path) -> bool:
    """The same directory, or one inside the other."""
    return a == b or a in b.parents or b in a.parents


def check_binding(
    caller: Principal,
    repo_id: str,
    root: Path,
    bound: Mapping[str, Path],
    *,
    repoint: bool = False,
) -> None:
    """Refuse binding `repo_id` to `root` given the current `bound` ids (id -> root); `repoint`
    is for the operator's own start-up command (the CLI), never for a tool call."""
    if not caller.may(repo_id, "admin"):
        raise AccessDenied(f"add_repo needs the 'admin' grant on repository {repo_id!r}")
    current = bound.get(repo_id)
    if current is not None and current != root and not repoint:
        raise ConflictError(
            f"`repoId`: repository {repo_id!r} is already registered at {current}; an id is "
            f"never re-pointed to another directory ({root}): remove it first "
            "(repocontext_remove_repo, which also deletes its memory), then add it again"
        )
    for other_id, other_root in bound.items():
        if other_id == repo_id or caller.may(other_id, "read"):
            continue
        if overlaps(root, other_root):
            raise AccessDenied(
                f"`path`: {root} is, contains or lies inside a directory that backs a "
                "repository you may not read; ask its owner for the 'read' grant"
            )
