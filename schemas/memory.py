"""Agent memory and claims: commands, the current entry, command results, key grammar.

Log keys of memory.commands.v1 / memory.v1 are `repoId/topic/id` (so one repository stays
on one partition and one key has one writer); the agent-facing key is
`repo/{repoId}/mem/{topic}/{id}` (spec §1.2). Memory results are keyed `repoId/commandId`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

MemoryKind = Literal["Decision", "Note", "Memory"]
CommandOp = Literal[
    "remember",
    "update",
    "forget",
    "claim",
    "renew",
    "release",
    "cancel_wait",
    "purge",
    "import",
    "rederive",  # internal: bring an entry an older processor wrote up to date (no result)
]
Verdict = Literal["ClaimRequired", "StaleToken", "UnissuedToken", "ClaimReleased", "ForeignRegion"]
ErrorKind = Literal["not_found", "conflict", "invalid"]

SETTABLE_FIELDS = ("title", "body", "author", "provenance")
KEY_FAMILIES = (
    "pkg",
    "file",
    "symbol",
    "content",
    "xref",
    "mem",
    "session",
    "vec",
    "vpay",
    "vmem",
)
# The families whose rest is a repo-relative path.
PATH_FAMILIES = frozenset({"pkg", "file", "content"})
# A topic or id segment: no slash, no control characters, bounded.
_SEGMENT = re.compile(r"^[^/\x00-\x1f]{1,200}$")


def valid_segment(value: str) -> bool:
    """A repoId, topic or id: no slash, no control character, no outer space, and not `.` or
    `..` (a key `repo/r/mem/../..` reads as a path out of the repository)."""
    return bool(_SEGMENT.match(value)) and value.strip() == value and value not in (".", "..")


def memory_key(repo_id: str, topic: str, id_: str) -> str:
    return f"repo/{repo_id}/mem/{topic}/{id_}"


def log_key(repo_id: str, topic: str, id_: str) -> str:
    return f"{repo_id}/{topic}/{id_}"


def parse_memory_key(key: str) -> tuple[str, str, str] | None:
    """(repoId, topic, id) of a `repo/{repoId}/mem/{topic}/{id}` key, else None."""
    parts = key.split("/")
    if len(parts) != 5 or parts[0] != "repo" or parts[2] != "mem":
        return None
    repo_id, topic, id_ = parts[1], parts[3], parts[4]
    if not all(valid_segment(p) for p in (repo_id, topic, id_)):
        return None
    return repo_id, topic, id_


def well_formed_key(key: str) -> bool:
    """Key grammar of spec §1.2: `repo/{repoId}` or `repo/{repoId}/{family}/{rest}`."""
    if not key.startswith("repo/") or key != key.strip() or "\x00" in key:
        return False
    parts = key.split("/", 3)
    if len(parts) == 2:
        return valid_segment(parts[1])
    if len(parts) != 4 or not valid_segment(parts[1]) or parts[2] not in KEY_FAMILIES:
        return False
    rest = parts[3]
    if not rest or rest.startswith("/") or "//" in rest or len(rest) > 4096:
        return False
    if parts[2] in PATH_FAMILIES and {".", ".."} & set(rest.split("/")):
        return False  # repo-relative paths name no `.` or `..` segment
    if parts[2] == "mem":
        return parse_memory_key(key) is not None
    return True


class Waiter(BaseModel):
    """One FIFO claim waiter: a tool call waiting until `wait_until` (issued_at clock)."""

    ticket: str
    owner: str
    wait_until: float


class MemoryTerms(BaseModel):
    """An entry's search terms per field, space-joined, as the views index them (derived by
    the memory processor: processors/memory_terms.py)."""

    key: str = ""  # id and kind
    topic: str = ""
    tags: str = ""
    title: str = ""
    body: str = ""  # body, author and provenance


class MemoryEntry(BaseModel):
    """The full current state of one memory record (value of memory.v1)."""

    repo_id: str
    topic: str
    id: str
    kind: MemoryKind = "Note"
    fields: dict[str, str] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    links: dict[str, list[str]] = Field(default_factory=dict)
    link_digests: dict[str, str | None] = Field(default_factory=dict)
    created_at: float
    updated_at: float
    expires_at: float | None = None  # absolute epoch seconds; None = durable
    # Claim fence (the record's registers) and the lock it mirrors.
    fence: int = 0  # high-water mark of stamped tokens; 0 = never claimed
    released_fence: int = 0
    owner: str | None = None
    region: str | None = None
    lock_token: int = 0
    lock_owner: str | None = None
    lock_expires_at: float | None = None
    queue: list[Waiter] = Field(default_factory=list)
    undecodable: bool = False
    schema_version: int = 1
    # log position of the command that produced this state: a redelivered command at or
    # below it is skipped (at-least-once on Kafka); -1 = none recorded
    applied_position: int = -1
    # what search indexes, derived with every new state of the entry; None in entries written
    # before the processor derived them, until the runtime's start re-derives them
    # (MemoryProcessor.migrations)
    search_terms: MemoryTerms | None = None

    @property
    def key(self) -> str:
        return memory_key(self.repo_id, self.topic, self.id)


class MemoryCommand(BaseModel):
    """One command on memory.commands.v1. Time comes from `issued_at` (replay-stable)."""

    op: CommandOp
    command_id: str
    issued_at: float
    repo_id: str
    topic: str = ""
    id: str = ""
    region: str = "local"
    fencing_token: int | None = None
    # remember / update
    kind: MemoryKind | None = None
    fields: dict[str, str] = Field(default_factory=dict)
    add_tags: list[str] = Field(default_factory=list)
    remove_tags: list[str] = Field(default_factory=list)
    add_links: dict[str, list[str]] = Field(default_factory=dict)
    remove_links: dict[str, list[str]] = Field(default_factory=dict)
    link_digests: dict[str, str | None] = Field(default_factory=dict)
    ttl_seconds: float | None = None
    default_ttl_seconds: float | None = None  # the repository's policy, for a new entry
    # forget
    lapse: bool = False
    lapse_seconds: float = 60.0
    # claims
    owner: str | None = None
    lease_seconds: float | None = None
    ticket: str | None = None
    wait_until: float | None = None
    # import (`repocontext memory import`): the entry to merge, newest updated_at wins
    entry: MemoryEntry | None = None


class CommandResult(BaseModel):
    """The memory processor's answer to one command (value of memory.results.v1)."""

    command_id: str
    repo_id: str
    op: CommandOp
    ok: bool
    issued_at: float
    error: ErrorKind | None = None
    verdict: Verdict | None = None
    message: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)
