"""The MCP tool catalogue: names, descriptions, argument models and gating (spec §1.1).

Gating is decided here once, from the settings: write tools exist only with writes on,
path-taking tools only with a workspace root, workspace tools only in workspace mode.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from pydantic import BaseModel

from schemas import tools as t

Handler = Callable[[BaseModel], Awaitable[BaseModel]]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    args: type[BaseModel]
    result: type[BaseModel]
    method: str  # name of the coroutine on the answering service object
    writes: bool = False
    takes_path: bool = False
    workspace_only: bool = False
    single_repo_only: bool = False
    service: str = "core"  # which service object answers (see EmbeddedApp.services)
    grant: str | None = None  # access needed on the repository; default read, or write

    @property
    def required_grant(self) -> str:
        return self.grant or ("write" if self.writes else "read")


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "repocontext_health",
        "Is retrieval serving? Returns retrievalReady, retrievalPhase and a status line naming "
        "any degradation, plus how far the index lags the workspace.",
        t.NoArgs,
        t.HealthResult,
        "health",
    ),
    ToolSpec(
        "repocontext_search",
        "Find files in a repository by keyword (identifier-aware BM25 over paths and "
        "contents). Returns ranked hits with reasons, mode and retrievalPath; no file bodies.",
        t.SearchArgs,
        t.SearchResult,
        "search",
    ),
    ToolSpec(
        "repocontext_index_status",
        "Progress of a repository's ingest job: status None/Running/Completed/Failed, phase "
        "and file counts. Poll it after add_repo.",
        t.RepoIdArgs,
        t.IndexStatus,
        "index_status",
    ),
    ToolSpec(
        "repocontext_list_repos",
        "Registered repositories in id order, with file counts, last ingest time and root.",
        t.NoArgs,
        t.ListReposResult,
        "list_repos",
        workspace_only=True,
    ),
    ToolSpec(
        "repocontext_add_repo",
        "Register a directory under the workspace root as a repository and index it in the "
        "background (returns at once; poll index_status). Re-adding forces a full re-walk.",
        t.AddRepoArgs,
        t.IndexStatus,
        "add_repo",
        writes=True,
        takes_path=True,
        workspace_only=True,
        grant="admin",
    ),
    ToolSpec(
        "repocontext_remove_repo",
        "Remove a repository and everything indexed or remembered about it. Never touches "
        "disk. Ask the human first: memory of the repository is deleted too.",
        t.RepoIdArgs,
        t.RemoveRepoResult,
        "remove_repo",
        writes=True,
        workspace_only=True,
        grant="admin",
    ),
    ToolSpec(
        "repocontext_reset_index",
        "Drop a repository's code index and rebuild it from the event log. Memory is always "
        "preserved; the repository stays listed.",
        t.RepoIdArgs,
        t.ResetIndexResult,
        "reset_index",
        writes=True,
        workspace_only=True,
        grant="admin",
    ),
)


# Beyond the reference (agent experience).
TOOLS += (
    ToolSpec(
        "repocontext_refresh",
        "Re-read files you just changed (or the whole repository) now and return once search "
        "sees them (read-your-writes); says searchable=false if the timeout passed first.",
        t.RefreshArgs,
        t.RefreshResult,
        "refresh",
        takes_path=True,
        service="agent",
    ),
)


# The compact profile: the few high-level tools an agent with a tight context needs.
COMPACT_TOOLS = (
    "repocontext_search",
    "repocontext_context",
    "repocontext_outline",
    "repocontext_related",
    "repocontext_changed",
    "repocontext_remember",
    "repocontext_recall",
    "repocontext_health",
    "repocontext_refresh",
)


def visible_tools(
    *, writes: bool, has_root: bool, workspace_mode: bool, profile: str = "full"
) -> list[ToolSpec]:
    """The tools this server advertises (and accepts) under the given configuration."""
    chosen = []
    for spec in TOOLS:
        if profile == "compact" and spec.name not in COMPACT_TOOLS:
            continue
        if spec.writes and not writes:
            continue
        if spec.takes_path and not has_root:
            continue
        if spec.workspace_only and not workspace_mode:
            continue
        if spec.single_repo_only and workspace_mode:
            continue
        chosen.append(spec)
    return chosen
