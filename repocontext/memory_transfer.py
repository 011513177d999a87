"""`repocontext memory export|import`: back up the one thing the log alone holds.

Memory cannot be rebuilt from a workspace, so it travels in a portable, versioned file:
JSON Lines, a header record then one record per entry:

    {"format": "repocontext-memory", "version": 1, "exportedAt": "...", "repoId": null, ...}
    {"repoId": "r", "topic": "t", "id": "x", "kind": "Note", "fields": {...}, "tags": [...],
     "links": {...}, "linkDigests": {...}, "createdAt": 1.7e9, "updatedAt": 1.7e9,
     "expiresAt": null}

Export reads memory.v1 (the store of record, so it works while a server runs) and writes the
entries live at export time; expired ones are left out. Import sends one `import` command per
entry through memory.commands.v1, so the memory processor stays the single writer. Merge rule
(processors/memory.py): the newer `updatedAt` wins wholesale, a tie keeps the local entry (so
importing twice changes nothing), an entry already expired at import time is skipped, and
claim state (fences, locks, waiters) is never carried: fencing tokens are positions in one log.
"""

from __future__ import annotations

import json
import os
import stat
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from processors.memory_guards import check_fields, check_links
from query_api.errors import QueryApiError
from schemas import codec, topics
from schemas.errors import DecodeError
from schemas.memory import MemoryCommand, MemoryEntry, MemoryKind, log_key, valid_segment
from schemas.timestamps import iso_utc
from streams.eventlog.base import EventLog, LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.memory import MemoryViews

FORMAT = "repocontext-memory"
VERSION = 1
CHUNK = 500  # import commands appended per log write


class TransferError(QueryApiError):
    """The file cannot be written or read as a memory export; the message says why."""


class Header(BaseModel):
    model_config = ConfigDict(extra="allow")

    format: str
    version: int
    # how many entry lines follow; a file cut at a line boundary parses cleanly otherwise
    entries: int | None = Field(default=None, ge=0)


class ExportedEntry(BaseModel):
    """One entry in the file: content only, in the file's own (camelCase) vocabulary."""

    model_config = ConfigDict(extra="forbid")

    repoId: str
    topic: str
    id: str
    kind: MemoryKind = "Note"
    fields: dict[str, str] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    links: dict[str, list[str]] = Field(default_factory=dict)
    linkDigests: dict[str, str | None] = Field(default_factory=dict)
    createdAt: float
    updatedAt: float
    expiresAt: float | None = None

    @classmethod
    def of(cls, entry: MemoryEntry, only_repo: str | None = None) -> ExportedEntry:
        """The entry as exported; an export of one repository (`only_repo`) carries no link
        digest read from another repository (the link keys stay: they are this entry's)."""
        digests = entry.link_digests
        if only_repo is not None:
            own = f"repo/{only_repo}/"
            digests = {k: v for k, v in digests.items() if k.startswith(own)}
        return cls(
            repoId=entry.repo_id,
            topic=entry.topic,
            id=entry.id,
            kind=entry.kind,
            fields=entry.fields,
            tags=entry.tags,
            links=entry.links,
            linkDigests=digests,
            createdAt=entry.created_at,
            updatedAt=entry.updated_at,
            expiresAt=entry.expires_at,
        )

    def to_entry(self) -> MemoryEntry:
        return MemoryEntry(
            repo_id=self.repoId,
            topic=self.topic,
            id=self.id,
            kind=self.kind,
            fields=self.fields,
            tags=self.tags,
            links=self.links,
            link_digests=self.linkDigests,
            created_at=self.createdAt,
            updated_at=self.updatedAt,
            expires_at=self.expiresAt,
        )


async def current_entries(log: EventLog, repo_id: str | None) -> list[MemoryEntry]:
    """The newest value of every key of memory.v1 (tombstones drop it), in key order."""
    state: dict[str, MemoryEntry | None] = {}
    topic = topics.MEMORY.name
    for partition in range(await log.partitions(topic)):
        offset = 0
        while batch := await log.read(topic, partition, offset, 1000):
            for record in batch:
                if record.key is None:
                    continue
                try:
                    value = codec.decode(topic, record.value)
                except DecodeError as exc:
                    raise TransferError(f"memory.v1 holds an undecodable entry: {exc}") from exc
                state[record.key] = value if isinstance(value, MemoryEntry) else None
            offset = batch[-1].offset + 1
    entries = [e for e in state.values() if e is not None]
    if repo_id is not None:
        entries = [e for e in entries if e.repo_id == repo_id]
    return sorted(entries, key=lambda e: e.key)


def write_export(
    path: Path, entries: Iterable[MemoryEntry], repo_id: str | None, now: float
) -> int:
    """Write the live entries atomically (temp file, fsync, rename); returns how many."""
    live = [e for e in entries if e.expires_at is None or e.expires_at > now]
    header = {
        "format": FORMAT,
        "version": VERSION,
        "exportedAt": iso_utc(now),
        "repoId": repo_id,
        "entries": len(live),
    }
    path = _export_target(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        # 0600: the file holds every body of the exported memory (docs/security.md)
        tmp.unlink(missing_ok=True)
        descriptor = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(descriptor, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(header) + "\n")
            for entry in live:
                handle.write(ExportedEntry.of(entry, repo_id).model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise TransferError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return len(live)


def _export_target(path: Path) -> Path:
    """The regular file the export replaces. A symlink is followed (replacing the link itself
    turned `/dev/stdout` into a regular file); a device, fifo or directory is refused before
    anything is opened (a fifo without a reader would block)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path.resolve()  # new, or a dangling link: written where it points
    except OSError as exc:
        raise TransferError(f"cannot write {path}: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(mode):
        raise TransferError(f"cannot write {path}: Is a directory")
    if not stat.S_ISREG(mode):
        raise TransferError(
            f"cannot write {path}: not a regular file (the export is written to a file and "
            "replaced whole); pass a file path"
        )
    return path.resolve()


def read_export(path: Path, repo_id: str | None = None) -> list[MemoryEntry]:
    """Every entry of an export file (of `repo_id` only, when given), fully validated first:
    a bad file imports nothing."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()  # an editor's BOM: not data
    except (OSError, UnicodeError) as exc:
        raise TransferError(f"cannot read {path}: {exc}") from exc
    if not lines:
        raise TransferError(f"{path} is empty; expected a {FORMAT} header line")
    header = _header(path, lines[0])
    if header.format != FORMAT:
        raise TransferError(f"{path} is not a memory export (format {header.format!r})")
    if header.version != VERSION:
        raise TransferError(
            f"{path} is a {FORMAT} file of version {header.version}; this repocontext reads "
            f"version {VERSION} (use the repocontext that wrote it, or a newer one)"
        )
    records = [(n, line) for n, line in enumerate(lines[1:], start=2) if line.strip()]
    if header.entries is not None and header.entries != len(records):
        raise TransferError(
            f"{path} has {len(records)} entry lines; its header announces {header.entries}: "
            "the file is truncated or was edited; nothing was imported (a file edited on "
            "purpose imports once its header's `entries` says how many it holds)"
        )
    entries: dict[str, MemoryEntry] = {}
    for number, line in records:
        try:
            record = ExportedEntry.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise TransferError(f"{path}:{number}: `{where}`: {first['msg']}") from exc
        problem = _problem(record)
        if problem:
            raise TransferError(f"{path}:{number}: {problem}")
        entry = record.to_entry()
        if repo_id is None or entry.repo_id == repo_id:
            entries[entry.key] = entry  # a key repeated in the file: the last line wins
    return list(entries.values())


def _header(path: Path, line: str) -> Header:
    try:
        return Header.model_validate_json(line)
    except ValidationError as exc:
        raise TransferError(
            f'{path}:1: not a {FORMAT} header (expected {{"format": "{FORMAT}", '
            f'"version": {VERSION}, ...}})'
        ) from exc


def _problem(record: ExportedEntry) -> str | None:
    for name in ("repoId", "topic", "id"):
        if not valid_segment(getattr(record, name)):
            return f"`{name}` must be non-empty, without '/', control characters or edge spaces"
    return check_fields(record.fields) or check_links("links", record.links)


async def import_entries(
    log: EventLog,
    runtime: EmbeddedRuntime,
    memory: MemoryViews,
    entries: Sequence[MemoryEntry],
    timeout_s: float,
) -> dict[str, int]:
    """Merge `entries` through the memory processor; counts of what each command did."""
    counts = {"imported": 0, "unchanged": 0, "localNewer": 0, "expired": 0}
    for start in range(0, len(entries), CHUNK):
        commands = [_command(e) for e in entries[start : start + CHUNK]]
        records = [
            LogRecord(key=log_key(c.repo_id, c.topic, c.id), value=codec.encode(c))
            for c in commands
        ]
        placed = await log.append(topics.MEMORY_COMMANDS.name, records)
        ends: dict[tuple[str, int], int] = {}
        for partition, offset in placed:
            tp = (topics.MEMORY_COMMANDS.name, partition)
            ends[tp] = max(ends.get(tp, 0), offset + 1)
        runtime.notify()
        if not await runtime.wait_through(ends, timeout_s):
            raise TransferError(
                f"the memory processor did not apply the import within {timeout_s:g} s; "
                "importing again is safe (the merge is idempotent)"
            )
        for cmd in commands:
            result = memory.result(cmd.repo_id, cmd.command_id)
            if result is None or not result.ok:
                why = "no result" if result is None else result.message
                raise TransferError(f"importing {cmd.repo_id}/{cmd.topic}/{cmd.id} failed: {why}")
            counts[_outcome(result.data)] += 1
    return counts


def _command(entry: MemoryEntry) -> MemoryCommand:
    return MemoryCommand(
        op="import",
        command_id=uuid.uuid4().hex,
        issued_at=time.time(),
        repo_id=entry.repo_id,
        topic=entry.topic,
        id=entry.id,
        entry=entry,
    )


def _outcome(data: dict[str, Any]) -> str:
    if data.get("imported"):
        return "imported"
    return {"expired": "expired", "local_newer": "localNewer"}.get(
        str(data.get("reason")), "unchanged"
    )
