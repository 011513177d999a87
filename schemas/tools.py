"""Inputs and outputs of the MCP tools, with the reference's field names (spec §1)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.bounds import float_arg, int_arg
from schemas.retrieval import RetrievalPath, SearchMode

JobStatus = Literal["None", "Running", "Completed", "Failed"]
JobPhase = Literal["Walking", "Reconciling", "Applying", "Vectorising", "Done", "Resetting"]
EntryKind = Literal["Repo", "Package", "File", "Symbol", "Memory", "Content", "Session", "Unknown"]


class ToolModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EntryView(ToolModel):
    """The shared entry view (spec §1.3). Bulk reads leave expiry and staleness out: not
    evaluated (the reference's null; no null is sent)."""

    key: str
    exists: bool
    kind: EntryKind
    repoId: str | None = None
    path: str | None = None
    fullyQualifiedName: str | None = None
    topic: str | None = None
    id: str | None = None
    fields: dict[str, str] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    links: dict[str, list[str]] = Field(default_factory=dict)
    expires: bool | None = None
    expiresAtUtc: str | None = None
    remainingSeconds: float | None = None
    hasExpired: bool | None = None
    stale: bool | None = None
    staleLinks: list[str] | None = None
    # true: the caller may not read this key's repository; every other field stays empty and
    # `exists` is false whether or not the entry exists (docs/security.md)
    withheld: bool | None = None


class LinkedMemory(ToolModel):
    """A live memory entry linked to a hit's file or symbol (our addition: what agents wrote
    about this code travels with it). `summary` is the title, else the body's first line."""

    key: str
    kind: str
    topic: str
    summary: str
    stale: bool | None = None


class SearchHit(ToolModel):
    score: float
    entry: EntryView
    vectorId: str | None = None
    reasons: list[str] = Field(default_factory=list)
    # File/symbol hits: up to 3 linked live memory entries ([] = none); null on memory hits.
    linkedMemory: list[LinkedMemory] | None = None
    # File/symbol hits (our addition): the 1-based lines to open and up to 3 matching lines,
    # each `N: text`. The range is the declaration around the best-matching lines (or the
    # symbol) when it is at most 40 lines; inside a longer one, the matching lines near the
    # best one +-3, clipped to it and at most 40 lines, so an agent opens what matched; when
    # no line holds a query word, the lines of the hit's best passage (the vectors' match).
    startLine: int | None = None
    endLine: int | None = None
    snippet: str | None = None


class VectorCoverage(ToolModel):
    """How much of a repository the vector plane covers (our addition): a semantic or hybrid
    answer over partial coverage ranks only the covered files by meaning. `filesCovered`
    counts files embedded plus files with nothing to embed (tests, docs, config, empty: see
    docs/semantic.md); `passagesPending` is estimated from the passages per covered file, and
    `etaSeconds` from the measured embedding rate (absent until a batch was timed)."""

    filesTotal: int
    filesCovered: int
    filesEmbedded: int
    passagesEmbedded: int
    passagesPending: int
    complete: bool
    passagesPerSecond: float | None = None
    etaSeconds: float | None = None


class VectorsComplete(ToolModel):
    """The vector plane covers every file of the repository (our addition): what a context
    bundle, every token of which is budgeted, carries in place of VectorCoverage, whose
    counts say nothing an agent acts on once coverage is complete."""

    complete: Literal[True] = True


class IndexBuild(ToolModel):
    """A repository whose ingest job is still running (our addition): its answers cover only
    the files indexed so far, and the log lag alone cannot say so, since the views keep up
    with each batch while the walk is still publishing the next. `filesFound` is absent while
    the files are being listed."""

    repoId: str
    phase: JobPhase | None = None
    filesIndexed: int
    filesFound: int | None = None
    # the job compares an index an earlier run left with the disk (a server started again):
    # what the views hold is that index, not a first walk's first files
    resumed: bool | None = None


class Freshness(ToolModel):
    """How current an answer is (our addition; every answer carries it): how far the views
    lag the log, and for the answer's repository what the source knows that the views do not
    yet reflect. An absent field means "not known", never "none", but for a context bundle's
    offsets: a bundle whose views are caught up says so by `eventsBehind` 0 alone."""

    appliedOffsets: int | None = None
    logEndOffsets: int | None = None
    eventsBehind: int
    secondsBehind: float | None = None
    # workspace sources: files changed on disk that the watcher has seen but not yet logged
    pendingFiles: int | None = None
    # git sources: the commit the views reflect vs the ref's commit at the last poll
    indexedCommit: str | None = None
    sourceCommit: str | None = None
    sourceCheckedAt: str | None = None
    sourceError: str | None = None  # the last poll's fetch error (credentials redacted)
    # the vector plane's coverage (none: keyword only); a context bundle says only that it is
    # complete, when it is
    vectors: VectorCoverage | VectorsComplete | None = None
    # repositories whose index is still being built (ingest job running): eventsBehind 0 does
    # not mean their answers are complete
    indexing: list[IndexBuild] | None = None
    # distributed replicas (the lag is measured in the background, never on the answer's
    # path): when it was measured, and while the event log does not answer, since when and
    # why; the offsets above are then the last ones measured. Null on the embedded log.
    lagMeasuredAt: str | None = None
    logReachable: bool | None = None
    logUnreachableSince: str | None = None
    logError: str | None = None


class ShardAnswer(ToolModel):
    """One shard's part in a search over every repository on sharded replicas (our
    addition): whether it answered, and if not, why (its repositories are then missing)."""

    shard: str  # "K/S"
    answered: bool
    reason: str | None = None


class SearchResult(ToolModel):
    repoId: str | None = None  # absent: a search over every repository the caller may read
    query: str
    mode: SearchMode
    retrievalPath: RetrievalPath
    hits: list[SearchHit]
    # Why `hits` is empty when the repository has files (our addition): nothing holds the
    # query's words and no passage is semantically close; or, with any hits, that the
    # repository's index is still being built (freshness.indexing), so they may be partial.
    note: str | None = None
    freshness: Freshness | None = None
    # A search over every repository (our addition): the repositories searched, and on a
    # sharded replica each shard's part (a shard that did not answer leaves a partial answer).
    searchedRepos: list[str] | None = None
    shards: list[ShardAnswer] | None = None


class IndexStatus(ToolModel):
    """The ingest job's progress snapshot (spec §1.4 index_status)."""

    repoId: str
    status: JobStatus = "None"
    phase: JobPhase | None = None
    filesScanned: int = 0
    filesAdded: int = 0
    filesUpdated: int = 0
    filesRemoved: int = 0
    filesUnchanged: int = 0
    # files and directories found but unreadable (permission, I/O error), and the first 20
    # of them (our addition): never skipped without a word
    filesUnreadable: int = 0
    unreadablePaths: list[str] | None = None
    # files the walk found and left out, and how many for each reason (our addition):
    # binary (a NUL in the first 8000 bytes, or a PDF), permission, unreadable, vanished, symlink,
    # not-regular, undecodable-name (not UTF-8); files in the index whose text the tools
    # return only in part (past 64 Ki characters), and those past which search stops too
    # (past the indexed limit)
    filesSkipped: int = 0
    skippedByReason: dict[str, int] | None = None
    # ignore-file lines the walk dropped (past 10,000 rules a file or 50,000 a repository,
    # patterns it refused, lines past a file's 4 MiB cut) and the first 20 ignore files that
    # lost them (our addition, only when there are any): files those lines name may be indexed
    ignoreRulesDropped: int | None = None
    ignoreRulesDroppedPaths: list[str] | None = None
    filesTruncated: int | None = None
    filesSearchedInPart: int | None = None
    chunksTotal: int = 0
    chunksCommitted: int = 0
    filesEmbedded: int = 0
    symbolsEmbedded: int = 0
    filesContentProjected: int = 0
    attempt: int = 0
    startedAt: str | None = None
    updatedAt: str | None = None
    completedAt: str | None = None
    elapsedMilliseconds: int | None = None
    error: str | None = None
    treesSwept: list[str] | None = None
    entriesDeleted: int | None = None
    pacing: dict[str, Any] | None = None


class RepoSummary(ToolModel):
    repoId: str
    lastIngested: str | None = None
    fileCount: int | None = None
    embeddedVectorCount: int | None = None
    embeddedVectorCountPending: bool | None = None
    vectorCoverage: VectorCoverage | None = None
    indexedRoot: str | None = None
    indexedCommit: str | None = None


class ListReposResult(ToolModel):
    repositories: list[RepoSummary]
    count: int


class RemoveRepoResult(ToolModel):
    repoId: str
    entriesRemoved: int


class ResetIndexResult(ToolModel):
    repoId: str
    entriesDeleted: int
    elapsedMilliseconds: int
    treesSwept: list[str]
    memoryPreserved: bool = True
    censusCleared: bool


class HealthResult(ToolModel):
    available: bool = True
    group: str = "repocontext"
    status: str
    retrievalReady: bool
    retrievalPhase: str
    freshness: Freshness | None = None


# ---------------------------------------------------------------------------------------------
# Tool inputs. Unknown arguments are rejected (a typo must not be silently ignored); every
# tool also accepts the reference's optional `region` (ignored: one region here).

_REGION = Field(default=None, max_length=128, description="Optional region; ignored here.")


class ToolInput(BaseModel):
    # strict: a string or a boolean is no number and `"yes"` or 1 no boolean (lax validation
    # took `offset: "5"`, `lapse: "yes"` and `respectGitignore: "no"` without a word)
    model_config = ConfigDict(extra="forbid", str_max_length=65_536, strict=True)

    region: str | None = _REGION


class NoArgs(ToolInput):
    pass


class RepoIdArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")


class AddRepoArgs(ToolInput):
    path: str = Field(
        min_length=1, max_length=4096, description="Directory under the workspace root."
    )
    repoId: str | None = Field(
        default=None, max_length=128, description="Defaults to the path's final segment."
    )
    includeGlobs: list[str] | None = Field(
        default=None, max_length=256, description="Only files matching one of these globs."
    )
    excludeGlobs: list[str] | None = Field(
        default=None, max_length=256, description="Files matching these are skipped."
    )
    respectGitignore: bool = Field(default=True, description="Apply .gitignore files.")
    excludeBinary: bool = Field(default=True, description="Skip files with a NUL byte.")


class SearchArgs(ToolInput):
    repoId: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="Repository id; omit to search every repository you may read.",
    )
    query: str = Field(min_length=1, max_length=4096, description="What to look for.")
    k: int = int_arg(10, 1, 100, "Number of hits,")


class RefreshArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")
    paths: list[str] | None = Field(
        default=None,
        max_length=1000,
        description="Repo-relative files or directories to re-read now; omit for all.",
    )
    timeoutSeconds: float = float_arg(
        10.0, "Seconds to wait for searchability, 0..120.", lo=0.0, hi=120.0
    )
    waitForVectors: bool = Field(
        default=False, description="Also wait until the changes are embedded (vector search)."
    )


class RefreshResult(ToolModel):
    repoId: str
    published: int  # change events the re-read produced (0 = the index was already current)
    searchable: bool  # every published change is visible to search
    waitedForVectors: bool
    elapsedMilliseconds: int
    freshness: Freshness | None = None
    # The named paths no indexed file is at or under once the re-read is applied (our
    # addition): `published: 0` alone read as "your file is current" for a path that will
    # never be indexed (missing, ignored, binary, a symbolic link), with `note` saying why.
    notIndexed: list[str] | None = None
    note: str | None = None


class EvalArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")
    maxCases: int = int_arg(100, 1, 500, "Cases mined from git history,")
    budgetSeconds: float = float_arg(25.0, "Time budget in seconds, 1..600.", lo=1.0, hi=600.0)


class RungScoreView(ToolModel):
    rung: str  # keyword | vector | hybrid
    cases: int
    recallAt1: float
    recallAt5: float
    recallAt10: float
    mrr: float


class SkippedRung(ToolModel):
    rung: str  # vector | hybrid
    reason: str  # why it could not be measured, and what would make it measurable


class EvalResult(ToolModel):
    repoId: str
    indexedCommit: str | None = None
    cases: int
    rungs: list[RungScoreView]
    # rungs left out rather than scored 0.0 (our addition): no embedder, no vectors yet
    skippedRungs: list[SkippedRung] = Field(default_factory=list)
    cached: bool
    elapsedMilliseconds: int
    note: str | None = None
