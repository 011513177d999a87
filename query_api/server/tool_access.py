"""The one access gate for tools/list and tools/call (no list-then-deny gap).

Who is calling comes from the transport: stdio callers are the local user; HTTP callers are
the principal the bearer-token middleware put in the request's state (or the local user when
no token file is configured, which is only allowed on loopback). A tool is listed only if
the caller holds its grant on some repository, and every call is checked against the
repository it names; list results are filtered to what the caller may read.
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import BaseModel

from query_api.access.auth import LOCAL_USER, Principal
from query_api.errors import AccessDenied
from query_api.server.tool_catalog import ToolSpec
from schemas.events import repo_id_from_name

NOBODY = Principal("anonymous", {})


def caller_of(server: Any, local: Principal = LOCAL_USER) -> Principal:
    """The caller of the request `server` is handling; `local` is the caller of a transport
    without requests: stdio's local user, or the principal an attached `serve` authenticated
    (repocontext/agent_socket.py)."""
    try:
        context = server.request_context
    except LookupError:
        return local
    request = getattr(context, "request", None)
    if request is None:  # stdio, or the owner's socket
        return local
    state = request.scope.get("state", {}) if hasattr(request, "scope") else {}
    principal = state.get("principal") if isinstance(state, dict) else None
    return principal if isinstance(principal, Principal) else NOBODY


def may_list(principal: Principal, spec: ToolSpec) -> bool:
    return principal.may_somewhere(spec.required_grant)


def repo_named_by(args: BaseModel) -> str | None:
    """The repository a call targets: `repoId`, the repo segment of a `key`, or add_repo's
    directory name when no repoId is given."""
    repo_id = getattr(args, "repoId", None)
    if isinstance(repo_id, str) and repo_id:
        return repo_id
    key = getattr(args, "key", None)
    if isinstance(key, str) and key.startswith("repo/"):
        return key.split("/", 2)[1] if key.count("/") >= 1 else None
    path = getattr(args, "path", None)
    if isinstance(path, str) and path:
        return repo_id_from_name(os.path.basename(path.rstrip("/\\"))) or None
    return None


def check_call(principal: Principal, spec: ToolSpec, args: BaseModel) -> None:
    grant = spec.required_grant
    repo = repo_named_by(args)
    allowed = principal.may(repo, grant) if repo else principal.may_somewhere(grant)
    if not allowed:
        target = f"repository {repo!r}" if repo else "any repository"
        raise AccessDenied(f"{spec.name} needs the {grant!r} grant on {target}")


def filter_result(principal: Principal, result: BaseModel) -> BaseModel:
    """Drop rows of repositories the caller may not read from list-shaped results."""
    rows = getattr(result, "repositories", None)
    if isinstance(rows, list):
        kept = [r for r in rows if principal.may(str(getattr(r, "repoId", "")), "read")]
        return result.model_copy(update={"repositories": kept, "count": len(kept)})
    return result
