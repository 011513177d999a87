"""The MCP tool catalogue: names, descriptions, argument models and gating (spec §1.1).

Gating is decided here once, from the settings: write tools exist only with writes on,
path-taking tools only with a workspace root, workspace tools only in workspace mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from schemas import bundle as bn
from schemas import memory_tools as m
from schemas import symbols as sym
from schemas import tools as t


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
        "Find files, symbols and memory entries in a repository (identifier-aware BM25, plus "
        "vectors when an embedder is bound). Returns ranked hits with reasons, mode and "
        "retrievalPath; file/symbol hits carry linkedMemory (notes agents linked to that "
        "code); no file bodies.",
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
        service="memory",  # core removal + the repository's memory tombstoned in the log
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
    ToolSpec(
        "repocontext_eval",
        "Does semantic search help on this repository? Mines its git history into query -> "
        "files cases and reports Recall@1/5/10 and MRR for keyword, vector and hybrid.",
        t.EvalArgs,
        t.EvalResult,
        "eval",
        takes_path=True,  # reads the repository's git history from disk
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


# Symbols and cross-references (answered by query_api/symbols/service.py).
TOOLS += (
    ToolSpec(
        "repocontext_outline",
        "Outline of one indexed file without reading it: its declared symbols (fully-qualified "
        "name, kind, signature, 1-based start/end lines), sorted by start line, and "
        "fullReadTokenCount, the exact o200k_base token cost of reading the whole file.",
        sym.PathArgs,
        sym.OutlineResult,
        "outline",
        service="symbols",
    ),
    ToolSpec(
        "repocontext_related",
        "What one indexed file connects to: the modules it imports, dependents (symbols in "
        "other files that reference what it declares, resolved through imports where the "
        "language allows) and tests that exercise it ({Name}Test(s) types, test files).",
        sym.PathArgs,
        sym.RelatedResult,
        "related",
        service="symbols",
    ),
    ToolSpec(
        "repocontext_changed",
        "Files added, updated or removed on disk since the repository was indexed (the same "
        "filters, content digests, no git), optionally scoped to a directory, plus the "
        "indexed symbols that depend on updated or removed files.",
        sym.ChangedArgs,
        sym.ChangedResult,
        "changed",
        takes_path=True,
        service="symbols",
    ),
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


# Memory and claims (answered by query_api/memory/service.py and claims_service.py).
TOOLS += (
    ToolSpec(
        "repocontext_remember",
        "Remember something about a repository under a topic (decisions, gotchas, "
        "conventions, glossary, todo, backlog or a component): title, body, tags, typed links "
        "to files/symbols/entries, optional ttlSeconds. Pass a stable id to merge in place "
        "(idempotent retries). Under a claim, pass its fencingToken.",
        m.RememberArgs,
        m.RememberResult,
        "remember",
        writes=True,
        service="memory",
    ),
    ToolSpec(
        "repocontext_update",
        "Update an existing memory entry by key: fields (title, body, author, provenance), "
        "addTags/removeTags, addLinks/removeLinks. Keeps the remaining TTL.",
        m.UpdateArgs,
        m.UpdateResult,
        "update",
        writes=True,
        service="memory",
    ),
    ToolSpec(
        "repocontext_forget",
        "Delete a memory entry now, or lapse it (expire after lapseSeconds, never earlier "
        "than an expiry already in force).",
        m.ForgetArgs,
        m.ForgetResult,
        "forget",
        writes=True,
        service="memory",
    ),
    ToolSpec(
        "repocontext_recall",
        "Read one entry by key (memory, file, symbol, repo): fields, tags, links, expiry, and "
        "for memory whether linked files/symbols changed since they were linked (stale).",
        m.KeyArgs,
        t.EntryView,
        "recall",
        service="memory",
    ),
    ToolSpec(
        "repocontext_scan",
        "Page through a repository's Files, Packages, Symbols, Memory or one MemoryTopic in "
        "key order "
        "(continuationToken, pageSize 1..500). Expired entries never appear.",
        m.ScanArgs,
        m.ScanResult,
        "scan",
        service="memory",
    ),
    ToolSpec(
        "repocontext_list_topics",
        "The memory topics of a repository with their live entry counts: step 1 of any "
        "memory read.",
        m.RepoArgs,
        m.ListTopicsResult,
        "list_topics",
        service="memory",
    ),
    ToolSpec(
        "repocontext_neighbors",
        "Entries reachable from a memory entry over its outbound typed links (depth 1..3, at "
        "most maxNodes), optionally one relation only; dangling targets show exists=false.",
        m.NeighborsArgs,
        m.NeighborsResult,
        "neighbors",
        service="memory",
    ),
    ToolSpec(
        "repocontext_claim",
        "Claim a memory entry for exclusive work: a lease (default 30 s, at most 30 min) and "
        "a fencingToken to pass on every write. maxWaitSeconds waits in a FIFO queue.",
        m.ClaimArgs,
        m.ClaimResult,
        "claim",
        writes=True,
        service="claims",
    ),
    ToolSpec(
        "repocontext_renew_claim",
        "Extend your claim's lease (same token). Omitting leaseSeconds means 30 s, which can "
        "shorten a long lease (leaseShortened). reason=superseded means stop writing now.",
        m.RenewArgs,
        m.RenewResult,
        "renew_claim",
        writes=True,
        service="claims",
    ),
    ToolSpec(
        "repocontext_release_claim",
        "Release your claim; unfenced writes are admitted again once the current token is "
        "released.",
        m.ReleaseArgs,
        m.ReleaseResult,
        "release_claim",
        writes=True,
        service="claims",
    ),
    ToolSpec(
        "repocontext_claim_status",
        "Advisory snapshot of a memory entry's claim: fence, holder, lease, queue depth "
        "(authoritative=false: never gate decisions on it).",
        m.KeyArgs,
        m.ClaimStatusResult,
        "claim_status",
        service="claims",
    ),
    ToolSpec(
        "repocontext_bootstrap",
        "Index a repository directory under the workspace root in the background (single-"
        "repository mode; returns at once, poll index_status).",
        m.BootstrapArgs,
        t.IndexStatus,
        "bootstrap",
        writes=True,
        takes_path=True,
        single_repo_only=True,
        service="onboarding",
        grant="admin",
    ),
)


# The token-budgeted bundle and usage stats (answered by query_api/context/bundle.py).
TOOLS += (
    ToolSpec(
        "repocontext_context",
        "One call, hard-capped: the files that matter for a task, packed under "
        "responseBudgetTokens (exact BPE counts, the whole response included) at "
        "detail paths/outline/slices/auto. Pass session + seen receipts/known path@hash on "
        "follow-ups so content you hold is acknowledged in reused instead of re-sent.",
        bn.ContextArgs,
        bn.ContextResult,
        "context",
        service="bundle",
    ),
    ToolSpec(
        "repocontext_stats",
        "Token economics of context calls in the last hour: calls, response tokens, reads "
        "replaced, net saved (negative when discovery-heavy).",
        t.NoArgs,
        bn.StatsResult,
        "stats",
        service="bundle",
    ),
)
