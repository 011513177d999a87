"""The topic catalogue: the single place topic names, keys and policies are written down."""

from __future__ import annotations

import zlib
from typing import Literal

from pydantic import BaseModel, ConfigDict

Cleanup = Literal["compact", "delete"]
DAY_MS = 24 * 3600 * 1000


class TopicSpec(BaseModel):
    """How a topic is provisioned, on SQLite and on Kafka alike."""

    model_config = ConfigDict(frozen=True)

    name: str
    key: str  # human description of the key, e.g. "repoId/path"
    partitions: int = 1
    cleanup: Cleanup = "compact"
    retention_ms: int | None = None  # None = never expires (compacted topics keep latest forever)
    description: str = ""


REPOS = TopicSpec(
    name="repocontext.repos.v1",
    key="repoId",
    partitions=1,
    cleanup="compact",
    description="repository registrations; tombstone = removed",
)
FILES = TopicSpec(
    name="repocontext.files.v1",
    key="repoId/path",
    partitions=6,
    cleanup="compact",
    description="file upserts with bounded bodies; tombstone = deleted",
)
MEMORY_COMMANDS = TopicSpec(
    name="repocontext.memory.commands.v1",
    key="repoId/topic/id",
    partitions=6,
    cleanup="delete",
    retention_ms=7 * DAY_MS,
    description="remember/update/forget/claim commands",
)
MEMORY = TopicSpec(
    name="repocontext.memory.v1",
    key="repoId/topic/id",
    partitions=6,
    cleanup="compact",
    retention_ms=None,
    description="current memory entries; never expires",
)
MEMORY_RESULTS = TopicSpec(
    name="repocontext.memory.results.v1",
    key="repoId/commandId",
    partitions=6,
    cleanup="delete",
    retention_ms=1 * DAY_MS,
    description="the memory processor's verdict on each command (read-your-writes)",
)
STRUCTURE = TopicSpec(
    name="repocontext.structure.v1",
    key="repoId/path",
    partitions=6,
    cleanup="compact",
    description="structural record of one file",
)
CONTENT = TopicSpec(
    name="repocontext.content.v1",
    key="repoId/path",
    partitions=6,
    cleanup="compact",
    description="bounded body + identifier-aware token stream of one file (BM25)",
)
SYMBOLS = TopicSpec(
    name="repocontext.symbols.v1",
    key="repoId/path",
    partitions=6,
    cleanup="compact",
    description="all symbols declared in one file",
)
XREFS = TopicSpec(
    name="repocontext.xrefs.v1",
    key="repoId/path",
    partitions=6,
    cleanup="compact",
    description="outbound references/imports of one file",
)
SOURCES = TopicSpec(
    name="repocontext.sources.v1",
    key="repoId",
    partitions=1,
    cleanup="compact",
    description="each git source's latest poll: the ref's current commit and any fetch error",
)
DEADLETTER = TopicSpec(
    name="repocontext.deadletter.v1",
    key="original key",
    partitions=1,
    cleanup="delete",
    retention_ms=30 * DAY_MS,
    description="events a processor could not handle, with the error",
)

CATALOGUE: tuple[TopicSpec, ...] = (
    REPOS,
    FILES,
    MEMORY_COMMANDS,
    MEMORY,
    MEMORY_RESULTS,
    STRUCTURE,
    CONTENT,
    SYMBOLS,
    XREFS,
    SOURCES,
    DEADLETTER,
)
BY_NAME: dict[str, TopicSpec] = {t.name: t for t in CATALOGUE}


def repo_of_key(key: str) -> str:
    """Every key starts with the repoId (keys partition by repository first)."""
    return key.split("/", 1)[0]


def partition_for(key: str | None, partitions: int) -> int:
    """Stable partition of a key: crc32 of its repoId, so one repository stays in order."""
    if partitions <= 1 or key is None:
        return 0
    return zlib.crc32(repo_of_key(key).encode("utf-8")) % partitions
