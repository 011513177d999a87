"""Which repositories the current caller may read, for every answer that carries entries.

`check_call` (query_api/server/tool_access.py) gates the repository a call names, but an
answer can reach further: a memory entry links to keys in other repositories, and neighbors,
recall, search's linkedMemory, context and staleness follow those links. So the caller
travels with the call (a context variable set once by the MCP dispatcher, copied into tasks
and `to_thread`) and the one memory reader that hydrates entries (query_api/memory/views.py)
asks `may_read` before it shows a field, evaluates staleness or follows a link. An entry the
caller may not read becomes `withheld_view`: the same placeholder whether or not the entry
exists, so a guessed key reveals nothing.

Outside a tool call (CLI commands, tests driving services directly) the caller is the local
user, who holds every grant, exactly as on stdio.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from query_api.access.auth import LOCAL_USER, Principal
from schemas.tools import EntryView

_CALLER: ContextVar[Principal] = ContextVar("repocontext_caller", default=LOCAL_USER)


def current_caller() -> Principal:
    return _CALLER.get()


@contextlib.contextmanager
def reading_as(principal: Principal) -> Iterator[None]:
    """Answer everything inside the block as `principal` would be allowed to see it."""
    token = _CALLER.set(principal)
    try:
        yield
    finally:
        _CALLER.reset(token)


def repo_of_key(key: str) -> str | None:
    """The repository segment of `repo/{repoId}/...`, else None (a key of no repository)."""
    if not key.startswith("repo/"):
        return None
    repo_id = key.split("/", 2)[1]
    return repo_id or None


def may_read(repo_id: str | None) -> bool:
    return repo_id is not None and current_caller().may(repo_id, "read")


def may_read_key(key: str) -> bool:
    """False for a key of a repository the caller may not read; True for keys of no
    repository (they name nothing anybody could hold)."""
    repo_id = repo_of_key(key)
    return repo_id is None or may_read(repo_id)


def withheld_view(key: str) -> EntryView:
    """An entry the caller may not read: the key it already holds and nothing else, the same
    whether or not the entry exists (exists=false means "not shown", never "absent")."""
    return EntryView(key=key, exists=False, kind="Unknown", repoId=repo_of_key(key), withheld=True)
