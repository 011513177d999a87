"""Inputs and outputs of the memory and claim tools, with the reference's names (spec §1.4-§1.5)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator

from schemas.bounds import MAX_FENCE, MAX_TTL_SECONDS, float_arg, int_arg
from schemas.tools import EntryView, ToolInput, ToolModel

_KEY = Field(
    min_length=1, max_length=4096, description="A full key, e.g. repo/{repoId}/mem/{topic}/{id}."
)
_REPO = Field(min_length=1, max_length=128, description="Repository id.")
_TOKEN = Field(
    default=None,
    ge=0,
    le=MAX_FENCE,
    strict=True,
    description="The fencingToken of your claim (required under a live claim).",
)
_FENCE = Field(
    ge=0, le=MAX_FENCE, strict=True, description="The fencingToken your claim was granted."
)
_LEASE = float_arg(
    None,
    "Lease in seconds; omit for the short 30 s default; the grant is at most the server's "
    "maximum (1800 s).",
    hi=MAX_TTL_SECONDS,
    positive=True,
)
# One write's links are bounded (a QA pass: 50,000 targets in one remember ran past the call's
# deadline, and scan then returned 1.4 MB for that entry); processors/memory.py bounds an
# entry's links across writes.
MAX_LINK_RELATIONS = 32
MAX_LINK_TARGETS = 256
Links = Annotated[
    dict[str, Annotated[list[str], Field(max_length=MAX_LINK_TARGETS)]],
    Field(max_length=MAX_LINK_RELATIONS),
]
# A tag is a label (`backlog`, `priority:P0`, `resource:gpu`): a QA pass stored 256 tags of
# 65,000 characters in one remember (16 MB in one entry, every scan and hit carrying them),
# and the tags "", " " and NUL. processors/memory.py bounds an entry's tags across writes.
MAX_TAG_CHARS = 256


def _label(tag: str) -> str:
    if not tag.strip() or tag.strip() != tag:
        raise ValueError("a tag must not be blank or start or end with a space")
    if any(ord(c) < 32 or ord(c) == 127 for c in tag):
        raise ValueError("a tag must not hold control characters")
    return tag


Tag = Annotated[str, Field(max_length=MAX_TAG_CHARS), AfterValidator(_label)]


class KeyArgs(ToolInput):
    key: str = _KEY


class RememberArgs(ToolInput):
    repoId: str = _REPO
    topic: str = Field(
        min_length=1,
        max_length=200,
        description="decisions, gotchas, conventions, glossary, todo, backlog or a component name.",
    )
    id: str | None = Field(
        default=None,
        max_length=200,
        description="Omit for a new GUID; pass a stable id to merge in place (idempotent retries).",
    )
    kind: Literal["Decision", "Note", "Memory"] | None = Field(
        default=None, description="Decision | Note | Memory (default Note), fixed at creation."
    )
    title: str | None = Field(default=None, min_length=1)
    body: str | None = None
    author: str | None = Field(default=None, max_length=512)
    provenance: str | None = Field(default=None, max_length=4096)
    tags: list[Tag] | None = Field(default=None, max_length=256)
    addLinks: Links | None = Field(
        default=None, description="relation -> target keys (files, symbols, memory entries)."
    )
    removeLinks: Links | None = None
    ttlSeconds: float | None = float_arg(
        None,
        "Seconds until the entry expires, up to 100 years; omit for the repository default "
        "(durable unless set).",
        hi=MAX_TTL_SECONDS,
        positive=True,
    )
    fencingToken: int | None = _TOKEN

    @field_validator("title")
    @classmethod
    def _title_says_something(cls, title: str | None) -> str | None:
        """A blank title would show as an entry without a heading in every hit and list."""
        if title is not None and not title.strip():
            raise ValueError("a title must not be blank; omit it for an entry without one")
        return title


class RememberResult(ToolModel):
    key: str
    repoId: str
    topic: str
    id: str
    created: bool
    expires: bool | None = None
    expiresAtUtc: str | None = None
    linksAdded: int
    linksRemoved: int
    # the added link targets that name nothing that exists now (our addition; the reference
    # accepts them without a word): stored as written, read back with exists=false
    danglingLinks: list[str] = Field(default_factory=list)
    # what the write did with its link targets (a symbol key rewritten to the stored
    # spelling, dangling targets), None when nothing
    note: str | None = None


class UpdateArgs(ToolInput):
    key: str = _KEY
    fields: dict[str, str] | None = Field(
        default=None, description="title, body, author, provenance -> new value."
    )
    addTags: list[Tag] | None = Field(default=None, max_length=256)
    removeTags: list[str] | None = Field(default=None, max_length=256)
    addLinks: Links | None = None
    removeLinks: Links | None = None
    fencingToken: int | None = _TOKEN


class UpdateResult(ToolModel):
    key: str
    kind: str
    fieldsUpdated: list[str]
    tagsAdded: int
    tagsRemoved: int
    danglingLinks: list[str] = Field(default_factory=list)  # as RememberResult's
    note: str | None = None


class ForgetArgs(ToolInput):
    key: str = _KEY
    lapse: bool = Field(default=False, description="Expire after lapseSeconds instead of now.")
    lapseSeconds: float = float_arg(
        60.0,
        "Seconds until a lapsed entry expires (with lapse).",
        hi=MAX_TTL_SECONDS,
        positive=True,
    )
    fencingToken: int | None = _TOKEN


class ForgetResult(ToolModel):
    key: str
    mode: Literal["delete", "lapse"]
    existed: bool
    expiresAtUtc: str | None = None
    undecodable: bool = False


class ScanArgs(ToolInput):
    repoId: str = _REPO
    scope: str = Field(
        min_length=1,
        max_length=32,
        description="Files | Packages | Symbols | Memory | MemoryTopic",
    )
    topic: str | None = Field(default=None, max_length=200, description="Required for MemoryTopic.")
    pathPrefix: str | None = Field(default=None, max_length=4096, description="Files only.")
    continuationToken: str | None = Field(default=None, max_length=8192)
    pageSize: int = int_arg(100, 1, 500, "Entries per page,")


class ScanResult(ToolModel):
    entries: list[EntryView]
    continuationToken: str | None = None
    hasMore: bool


class RepoArgs(ToolInput):
    repoId: str = _REPO


class TopicCount(ToolModel):
    topic: str
    count: int


class ListTopicsResult(ToolModel):
    repoId: str
    topics: list[TopicCount]


class NeighborsArgs(ToolInput):
    key: str = _KEY
    relation: str | None = Field(default=None, max_length=128)
    depth: int = int_arg(1, 1, 3, "Hops from the key,")
    maxNodes: int = int_arg(50, 1, 100, "Most entries returned,")


class NeighborsResult(ToolModel):
    key: str
    exists: bool
    neighbors: list[EntryView]
    truncated: bool
    note: str | None = None  # a `relation` the entry has no link of: the ones it has


class ClaimArgs(ToolInput):
    key: str = _KEY
    owner: str = Field(min_length=1, max_length=256)
    leaseSeconds: float | None = _LEASE
    maxWaitSeconds: float | None = float_arg(
        None,
        "Omit to fail fast; else wait in the FIFO queue this long, 0..3600. A call answers "
        "within its deadline, so the wait is capped at REPOCONTEXT_TOOL_TIMEOUT_S less the "
        "memory write timeout less 1 s (19 s by default); a capped wait's answer says so in "
        "`note`.",
        lo=0,
        hi=3600,
    )


class ClaimResult(ToolModel):
    key: str
    lockName: str
    granted: bool
    fencingToken: int | None = None
    owner: str | None = None
    region: str | None = None
    leaseExpiresAtUtc: str | None = None
    leaseSeconds: float | None = None
    reason: Literal["contended", "timeout", "missing", "superseded"] | None = None
    note: str | None = None  # e.g. a timeout after a wait capped by the call's deadline


class RenewArgs(ToolInput):
    key: str = _KEY
    fencingToken: int = _FENCE
    leaseSeconds: float | None = _LEASE


class RenewResult(ClaimResult):
    previousLeaseExpiresAtUtc: str | None = None
    leaseShortened: bool | None = None


class ReleaseArgs(ToolInput):
    key: str = _KEY
    fencingToken: int = _FENCE


class ReleaseResult(ToolModel):
    key: str
    lockName: str
    released: bool
    fencingToken: int
    reason: Literal["missing", "unclaimed", "stale"] | None = None


class ClaimStatusResult(ToolModel):
    key: str
    lockName: str
    exists: bool
    claimed: bool
    isHeld: bool
    fencingToken: int | None = None
    releasedFencingToken: int | None = None
    owner: str | None = None
    region: str | None = None
    lockFencingToken: int | None = None
    leaseExpiresAtUtc: str | None = None
    queueDepth: int
    authoritative: bool = False


class BootstrapArgs(ToolInput):
    repoRoot: str = Field(
        min_length=1, max_length=4096, description="Directory under the workspace root."
    )
    repoId: str = _REPO
    includeGlobs: list[str] | None = Field(default=None, max_length=256)
    excludeGlobs: list[str] | None = Field(default=None, max_length=256)
    respectGitignore: bool = True
    excludeBinary: bool = True
