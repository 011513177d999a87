"""The MCP tool catalogue: names, descriptions, argument models, handlers and gating (spec §1.1).

Each tool names the coroutine that answers it as a typed accessor into `ToolServices`
(`lambda s: s.core.search`), so mypy checks that the handler takes the tool's argument model
and returns its result model. Gating is decided here once, from the settings: write tools
exist only with writes on, path-taking tools only with a workspace root, workspace tools only
in workspace mode.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from query_api.context.bundle import BundleService
from query_api.core.agent_tools import AgentTools
from query_api.core.onboarding import Onboarding
from query_api.core.service import RepoContextService
from query_api.memory.claims import ClaimService
from query_api.memory.service import MemoryService
from query_api.symbols.service import SymbolService
from schemas import bundle as bn
from schemas import memory_tools as m
from schemas import symbols as sym
from schemas import tools as t


@dataclass(frozen=True)
class ToolServices:
    """The objects that answer the tools, built once by the composition root."""

    core: RepoContextService
    agent: AgentTools
    symbols: SymbolService
    memory: MemoryService
    claims: ClaimService
    onboarding: Onboarding
    bundle: BundleService


Handler = Callable[[Any], Awaitable[BaseModel]]  # a validated argument model -> the result
A = TypeVar("A", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    args: type[BaseModel]
    result: type[BaseModel]
    handler: Callable[[ToolServices], Handler]  # picks the answering coroutine (see `tool`)
    writes: bool = False
    takes_path: bool = False
    workspace_only: bool = False
    single_repo_only: bool = False
    grant: str | None = None  # access needed on the repository; default read, or write
    # registers or removes repositories: writes repos.v1 and files.v1, which in the
    # distributed deployment only git sources write (not offered by a query replica)
    registers: bool = False

    @property
    def required_grant(self) -> str:
        return self.grant or ("write" if self.writes else "read")


def tool(
    name: str,
    description: str,
    args: type[A],
    result: type[R],
    handler: Callable[[ToolServices], Callable[[A], Awaitable[R]]],
    *,
    writes: bool = False,
    takes_path: bool = False,
    workspace_only: bool = False,
    single_repo_only: bool = False,
    grant: str | None = None,
    registers: bool = False,
) -> ToolSpec:
    """A catalogue entry. Typed here so mypy checks that `handler` takes `args` and answers
    `result` (a ToolSpec alone would accept any coroutine)."""
    return ToolSpec(
        name,
        description,
        args,
        result,
        handler,
        writes=writes,
        takes_path=takes_path,
        workspace_only=workspace_only,
        single_repo_only=single_repo_only,
        grant=grant,
        registers=registers,
    )


TOOLS: tuple[ToolSpec, ...] = (
    tool(
        "repocontext_health",
        "Is retrieval serving? Returns retrievalReady, retrievalPhase and a status line naming "
        "any degradation, plus how far the index lags the workspace.",
        t.NoArgs,
        t.HealthResult,
        lambda s: s.core.health,
    ),
    tool(
        "repocontext_search",
        "Find files, symbols and memory entries in a repository, or in every repository you "
        "may read when repoId is omitted (identifier-aware BM25, plus vectors when an embedder "
        "is bound). Returns ranked hits with reasons, mode and "
        "retrievalPath; file/symbol hits carry linkedMemory (notes agents linked to that "
        "code); no file bodies.",
        t.SearchArgs,
        t.SearchResult,
        lambda s: s.core.search,
    ),
    tool(
        "repocontext_index_status",
        "Progress of a repository's ingest job: status None/Running/Completed/Failed, phase "
        "and file counts. Poll it after add_repo.",
        t.RepoIdArgs,
        t.IndexStatus,
        lambda s: s.core.index_status,
    ),
    tool(
        "repocontext_list_repos",
        "Registered repositories in id order, with file counts, last ingest time and root.",
        t.NoArgs,
        t.ListReposResult,
        lambda s: s.core.list_repos,
        workspace_only=True,
    ),
    tool(
        "repocontext_add_repo",
        "Register a directory under the workspace root as a repository and index it in the "
        "background (returns at once; poll index_status). Re-adding forces a full re-walk.",
        t.AddRepoArgs,
        t.IndexStatus,
        lambda s: s.core.add_repo,
        writes=True,
        takes_path=True,
        workspace_only=True,
        grant="admin",
        registers=True,
    ),
    tool(
        "repocontext_remove_repo",
        "Remove a repository and everything indexed or remembered about it. Never touches "
        "disk. Ask the human first: memory of the repository is deleted too.",
        t.RepoIdArgs,
        t.RemoveRepoResult,
        lambda s: s.memory.remove_repo,  # core removal + the repository's memory tombstoned
        writes=True,
        workspace_only=True,
        grant="admin",
        registers=True,
    ),
    tool(
        "repocontext_reset_index",
        "Drop a repository's code index and rebuild it from the event log. Memory is always "
        "preserved; the repository stays listed.",
        t.RepoIdArgs,
        t.ResetIndexResult,
        lambda s: s.core.reset_index,
        writes=True,
        workspace_only=True,
        grant="admin",
    ),
)


# Beyond the reference (agent experience).
TOOLS += (
    tool(
        "repocontext_refresh",
        "Re-read files you just changed (or the whole repository) now and return once search "
        "sees them (read-your-writes); says searchable=false if the timeout passed first.",
        t.RefreshArgs,
        t.RefreshResult,
        lambda s: s.agent.refresh,
        takes_path=True,
    ),
    tool(
        "repocontext_eval",
        "Does semantic search help on this repository? Mines its git history into query -> "
        "files cases and reports Recall@1/5/10 and MRR for keyword, vector and hybrid.",
        t.EvalArgs,
        t.EvalResult,
        lambda s: s.agent.eval,
        takes_path=True,  # reads the repository's git history from disk
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
    tool(
        "repocontext_outline",
        "Outline of one indexed file without reading it: its declared symbols (fully-qualified "
        "name, kind, signature, 1-based start/end lines), sorted by start line, and "
        "fullReadTokenCount, the exact o200k_base token cost of reading the whole file (of "
        "its stored text when truncated: the file goes on past the indexed limit). "
        "Long lists come a page at a time (symbolCount, nextOffset).",
        sym.OutlineArgs,
        sym.OutlineResult,
        lambda s: s.symbols.outline,
    ),
    tool(
        "repocontext_related",
        "What one indexed file connects to: the modules it imports, dependents (symbols in "
        "other files that reference what it declares, resolved through imports where the "
        "language allows) and tests that exercise it ({Name}Test(s) types, test files "
        "referencing it or in a test folder named for it), most related first. Long lists "
        "come a page at a time (dependentFiles, testFiles, nextOffset).",
        sym.RelatedArgs,
        sym.RelatedResult,
        lambda s: s.symbols.related,
    ),
    tool(
        "repocontext_changed",
        "Files added, updated or removed on disk since the repository was indexed (the same "
        "filters, content digests, no git), optionally scoped to a directory, plus the "
        "indexed symbols that depend on updated or removed files.",
        sym.ChangedArgs,
        sym.ChangedResult,
        lambda s: s.symbols.changed,
        takes_path=True,
    ),
)


def visible_tools(
    *,
    writes: bool,
    has_root: bool,
    workspace_mode: bool,
    profile: str = "full",
    sources_here: bool = True,
) -> list[ToolSpec]:
    """The tools this server advertises (and accepts) under the given configuration;
    `sources_here` False (a query replica): none that `registers` (deploy/DISTRIBUTED.md,
    "Security": a replica's remove_repo tombstoned a git source's repository for the whole
    cluster, and the source, its last commit published, never published it again)."""
    chosen = []
    for spec in TOOLS:
        if spec.registers and not sources_here:
            continue
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
    tool(
        "repocontext_remember",
        "Remember something about a repository under a topic (decisions, gotchas, "
        "conventions, glossary, todo, backlog or a component): title, body, tags, typed links "
        "to files/symbols/entries, optional ttlSeconds. Pass a stable id to merge in place "
        "(idempotent retries). Under a claim, pass its fencingToken.",
        m.RememberArgs,
        m.RememberResult,
        lambda s: s.memory.remember,
        writes=True,
    ),
    tool(
        "repocontext_update",
        "Update an existing memory entry by key: fields (title, body, author, provenance), "
        "addTags/removeTags, addLinks/removeLinks. Keeps the remaining TTL.",
        m.UpdateArgs,
        m.UpdateResult,
        lambda s: s.memory.update,
        writes=True,
    ),
    tool(
        "repocontext_forget",
        "Delete a memory entry now, or lapse it (expire after lapseSeconds, never earlier "
        "than an expiry already in force).",
        m.ForgetArgs,
        m.ForgetResult,
        lambda s: s.memory.forget,
        writes=True,
    ),
    tool(
        "repocontext_recall",
        "Read one entry by key (memory, file, symbol, repo; repo/{repoId}/content/{path} for a "
        "file's stored text): fields, tags, links, expiry, and for memory whether linked "
        "files/symbols changed since they were linked (stale).",
        m.KeyArgs,
        t.EntryView,
        lambda s: s.memory.recall,
    ),
    tool(
        "repocontext_scan",
        "Page through a repository's Files, Packages, Symbols, Memory or one MemoryTopic in "
        "key order "
        "(continuationToken, pageSize 1..500). Expired entries never appear.",
        m.ScanArgs,
        m.ScanResult,
        lambda s: s.memory.scan,
    ),
    tool(
        "repocontext_list_topics",
        "The memory topics of a repository with their live entry counts: step 1 of any "
        "memory read.",
        m.RepoArgs,
        m.ListTopicsResult,
        lambda s: s.memory.list_topics,
    ),
    tool(
        "repocontext_neighbors",
        "Entries reachable from a memory entry over its outbound typed links (depth 1..3, at "
        "most maxNodes), optionally one relation only; dangling targets show exists=false.",
        m.NeighborsArgs,
        m.NeighborsResult,
        lambda s: s.memory.neighbors,
    ),
    tool(
        "repocontext_claim",
        "Claim a memory entry for exclusive work: a lease (default 30 s, at most 30 min) and "
        "a fencingToken to pass on every write. maxWaitSeconds waits in a FIFO queue.",
        m.ClaimArgs,
        m.ClaimResult,
        lambda s: s.claims.claim,
        writes=True,
    ),
    tool(
        "repocontext_renew_claim",
        "Extend your claim's lease (same token). Omitting leaseSeconds means 30 s, which can "
        "shorten a long lease (leaseShortened). reason=superseded means stop writing now.",
        m.RenewArgs,
        m.RenewResult,
        lambda s: s.claims.renew_claim,
        writes=True,
    ),
    tool(
        "repocontext_release_claim",
        "Release your claim; unfenced writes are admitted again once the current token is "
        "released.",
        m.ReleaseArgs,
        m.ReleaseResult,
        lambda s: s.claims.release_claim,
        writes=True,
    ),
    tool(
        "repocontext_claim_status",
        "Advisory snapshot of a memory entry's claim: fence, holder, lease, queue depth "
        "(authoritative=false: never gate decisions on it).",
        m.KeyArgs,
        m.ClaimStatusResult,
        lambda s: s.claims.claim_status,
    ),
    tool(
        "repocontext_bootstrap",
        "Index a repository directory under the workspace root in the background (single-"
        "repository mode; returns at once, poll index_status).",
        m.BootstrapArgs,
        t.IndexStatus,
        lambda s: s.onboarding.bootstrap,
        writes=True,
        takes_path=True,
        single_repo_only=True,
        grant="admin",
    ),
)


# The token-budgeted bundle and usage stats (answered by query_api/context/bundle.py).
TOOLS += (
    tool(
        "repocontext_context",
        "One call, hard-capped: the files that matter for a task, packed under "
        "responseBudgetTokens (exact BPE counts, the whole response included) at "
        "detail paths/outline/slices/auto. Pass session + seen receipts/known path@hash on "
        "follow-ups so content you hold is acknowledged in reused instead of re-sent.",
        bn.ContextArgs,
        bn.ContextResult,
        lambda s: s.bundle.context,
    ),
    tool(
        "repocontext_stats",
        "Token economics of context calls in the last hour: calls, response tokens, reads "
        "replaced, net saved (negative when discovery-heavy).",
        t.NoArgs,
        bn.StatsResult,
        lambda s: s.bundle.stats,
    ),
)
