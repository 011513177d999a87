"""Inputs and outputs of repocontext_context (spec §3.7) and repocontext_stats (§1.4)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PrivateAttr

from schemas.bounds import int_arg
from schemas.retrieval import RetrievalPath, SearchMode
from schemas.tools import Freshness, LinkedMemory, ToolInput, ToolModel

Detail = Literal["paths", "outline", "slices"]
UnitKind = Literal["pointer", "span", "outline"]
DEFAULT_BUDGET = 8192  # the reference's default responseBudgetTokens


class ContextArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")
    task: str = Field(min_length=1, max_length=16_384, description="What you are working on.")
    top: int = int_arg(10, 1, 50, "Files to consider,")
    responseBudgetTokens: int = int_arg(
        DEFAULT_BUDGET, 1, 200_000, "Hard cap on the response's token cost,"
    )
    detail: str = Field(
        default="auto", max_length=32, description="paths | outline | slices | auto"
    )
    seen: list[str] | None = Field(
        default=None, max_length=10_000, description="Unit receipts you already hold."
    )
    known: list[str] | None = Field(
        default=None, max_length=10_000, description="path@contentHash files you hold whole."
    )
    session: str | None = Field(default=None, max_length=256, description="Your session id.")


class Unit(ToolModel):
    receipt: str
    kind: UnitKind
    symbol: str | None = None
    tokenCount: int
    startLine: int | None = None  # span units: the 1-based lines they carry (our addition)
    endLine: int | None = None


class BundleEntry(ToolModel):
    path: str
    score: float
    reasons: list[str]
    tokenCount: int
    fullReadTokenCount: int | None = None  # left out when the file has no stored body
    content: str
    # the stored body's SHA-256, named only when `content` is that whole body (what a `known`
    # claim can name later); a sliced entry or a pointer leaves it out (our narrowing)
    contentHash: str | None = None
    units: list[Unit]
    startLine: int | None = None  # slices: the 1-based lines `content` covers (our addition)
    endLine: int | None = None
    # the file goes on past its stored 64 Ki characters, which stop in this line: spans and
    # fullReadTokenCount cover only the lines up to it (our addition; null for most files)
    truncatedAtLine: int | None = None
    # Live memory linked to this file or its symbols, at most 3 (our addition; charged).
    linkedMemory: list[LinkedMemory] = Field(default_factory=list)
    # the (first line, last line, declaration) spans a `slices` rendering chose, never sent:
    # the bundle widens them into room its answer leaves (query_api/context/fill.py)
    _spans: tuple[tuple[int, int, str | None], ...] = PrivateAttr(default=())
    # the share of the rendering's code a session already held, left out of this entry
    _held: float = PrivateAttr(default=0.0)
    # the lines of the file's search hit when they lie past its stored text (the text says so)
    _hit_past: tuple[int, int] | None = PrivateAttr(default=None)


class Reused(ToolModel):
    path: str
    kind: Literal["pointer", "span", "outline", "file"]
    receipt: str | None = None
    contentHash: str
    symbol: str | None = None
    # Our addition, only for the lines of a span the caller holds where the answer sends the
    # rest of it (a window cut wider than the one it was sent): which lines, no receipt.
    startLine: int | None = None
    endLine: int | None = None


class ContextResult(ToolModel):
    repoId: str
    task: str = Field(
        description="The task as given; one longer than 100 characters as its first words "
        "and ' …' (the caller holds the whole task)."
    )
    mode: SearchMode
    retrievalPath: RetrievalPath
    detail: Detail
    budgetTokens: int
    totalTokens: int
    responseTokens: int
    truncated: bool
    # only when nothing fit (null, and left out, otherwise); `session` and `reused` are left
    # out when the call named no session and reused nothing
    retryBudgetTokens: int | None = None
    entries: list[BundleEntry]
    session: str | None = None
    reused: list[Reused] = Field(default_factory=list)
    freshness: Freshness | None = None  # charged in the budget like the echoed task (ours)
    # ours, only when there is something to say: `detail` named no level (the reference packs
    # such a call as auto, silently; charged like the rest), or nothing matched the task (the
    # search's note, in an answer that packed nothing)
    note: str | None = None


class StatsResult(ToolModel):
    calls: int
    responseTokens: int
    readsReplacedTokens: int
    netSavedTokens: int
    windowSeconds: int = 3600
