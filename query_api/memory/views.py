"""Rendering memory and structural records as the shared entry view (spec §1.3), and the
command submitter every memory/claim tool goes through (append, wait for the verdict)."""

from __future__ import annotations

import asyncio
import time

from query_api.access.read_scope import may_read, may_read_key, withheld_view
from query_api.errors import ConflictError, NotFoundError, ServiceUnavailable, ToolInputError
from schemas import codec, topics
from schemas.memory import CommandResult, MemoryCommand, MemoryEntry, log_key, parse_memory_key
from schemas.timestamps import iso_utc
from schemas.tools import EntryView
from streams.eventlog.base import EventLog, LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.memory import MemoryViews
from streams.stores.views.read import ContentRow, FileRow
from streams.stores.views.scan import PackageEntry, ScanViews, SymbolEntry
from streams.stores.views.store import ViewStore


def require_memory_key(key: str, argument: str = "key") -> tuple[str, str, str]:
    parsed = parse_memory_key(key)
    if parsed is None:
        raise ToolInputError(
            f"`{argument}` must be a memory key repo/{{repoId}}/mem/{{topic}}/{{id}} "
            f"(topic and id without '/'); got {key[:200]!r}"
        )
    return parsed


class MemoryReader:
    """Entry views over the memory and structural views, with expiry and staleness.

    The one place entries are hydrated for an answer, so the one place the caller's grants
    apply (query_api/access/read_scope.py): an entry of a repository the caller may not read is the
    withheld placeholder, is never followed, and never counts towards staleness.
    """

    def __init__(self, views: ViewStore) -> None:
        self.views = views
        self.memory = MemoryViews(views)
        self.scans = ScanViews(views)

    def memory_view(self, entry: MemoryEntry, now: float | None, evaluate: bool) -> EntryView:
        if not may_read(entry.repo_id):
            return withheld_view(entry.key)
        fields = dict(entry.fields)
        fields["kind"] = entry.kind
        view = EntryView(
            key=entry.key,
            exists=True,
            kind="Memory",
            repoId=entry.repo_id,
            topic=entry.topic,
            id=entry.id,
            fields=dict(sorted(fields.items())),
            tags=sorted(entry.tags),
            links={rel: sorted(t) for rel, t in sorted(entry.links.items())},
        )
        if not evaluate or now is None:
            return view  # bulk reads: expiry and staleness are "not evaluated" (null)
        expires = entry.expires_at is not None
        remaining = None if entry.expires_at is None else max(0.0, entry.expires_at - now)
        stale_links = self.stale_links(entry)
        return view.model_copy(
            update={
                "expires": expires,
                "expiresAtUtc": iso_utc(entry.expires_at),
                "remainingSeconds": remaining,
                "hasExpired": expires and remaining == 0.0,
                "stale": bool(stale_links),
                "staleLinks": stale_links,
            }
        )

    def stale_links(self, entry: MemoryEntry) -> list[str]:
        """Linked files/symbols whose digest drifted since link time, or that vanished; a
        target the caller may not read is never evaluated (its drift would say it exists)."""
        stale = []
        for target in sorted({t for ts in entry.links.values() for t in ts}):
            if not may_read_key(target):
                continue
            parts = target.split("/", 3)
            if len(parts) != 4 or parts[2] not in ("file", "symbol", "content"):
                continue
            captured = entry.link_digests.get(target)
            exists, digest = self.memory.target_digest(target)
            if captured is not None and (not exists or digest != captured):
                stale.append(target)
        return stale

    def link_digest(self, target: str) -> str | None:
        """The digest a new link captures (for staleness later); None for a target the
        writer may not read, so the entry stores nothing read from that repository."""
        if not may_read_key(target):
            return None
        return self.memory.target_digest(target)[1]

    def linked(
        self, repo_id: str, targets: list[str], now: float, limit: int, file_path: str | None
    ) -> list[MemoryEntry]:
        """Live entries of `repo_id` linking to `targets` (none when it is not readable)."""
        if not may_read(repo_id):
            return []
        return self.memory.linked(repo_id, targets, now, limit, file_path)

    def live_entry(self, key: str, now: float) -> MemoryEntry | None:
        """The live entry at `key`, None when absent, expired or not readable by the caller."""
        if not may_read_key(key):
            return None
        entry = self.memory.get(key)
        if entry is None or (entry.expires_at is not None and entry.expires_at <= now):
            return None
        return entry

    def view_of(self, key: str, now: float) -> EntryView:
        """The per-key read: memory with expiry + staleness, files, symbols and packages (as
        scan lists them), a file's stored text by its content key, else absent; withheld for
        a repository the caller may not read."""
        if not may_read_key(key):
            return withheld_view(key)
        parsed = parse_memory_key(key)
        if parsed is not None:
            entry = self.memory.get(key)
            if entry is None:
                return EntryView(
                    key=key,
                    exists=False,
                    kind="Memory",
                    repoId=parsed[0],
                    topic=parsed[1],
                    id=parsed[2],
                )
            if entry.expires_at is not None and entry.expires_at <= now:
                return EntryView(
                    key=key,
                    exists=False,
                    kind="Memory",
                    repoId=parsed[0],
                    topic=parsed[1],
                    id=parsed[2],
                    expires=True,
                    expiresAtUtc=iso_utc(entry.expires_at),
                    remainingSeconds=0.0,
                    hasExpired=True,
                )
            return self.memory_view(entry, now, evaluate=True)
        parts = key.split("/", 3)
        if len(parts) == 4 and parts[0] == "repo":
            structural = self._structural_view(key, parts[1], parts[2], parts[3])
            if structural is not None:
                return structural
        if len(parts) == 2 and parts[0] == "repo":
            repo = self.views.get_repo(parts[1])
            return EntryView(key=key, exists=repo is not None, kind="Repo", repoId=parts[1])
        repo_id = parts[1] if len(parts) > 1 and parts[0] == "repo" else None
        return EntryView(key=key, exists=False, kind="Unknown", repoId=repo_id)

    def _structural_view(self, key: str, repo_id: str, family: str, rest: str) -> EntryView | None:
        """A file, content, symbol or package key read per key: the fields scan lists for it
        (a content key: the file's stored text), with expiry and staleness evaluated
        (structural records never expire and carry no links); None for other families."""
        found: EntryView | None
        if family == "file":
            row = self.views.get_file(repo_id, rest)
            found = file_view(row) if row is not None else None
            absent = EntryView(key=key, exists=False, kind="File", repoId=repo_id, path=rest)
        elif family == "symbol":
            symbol = self.scans.symbol(repo_id, rest)
            found = symbol_view(repo_id, symbol) if symbol is not None else None
            absent = EntryView(
                key=key, exists=False, kind="Symbol", repoId=repo_id, fullyQualifiedName=rest
            )
        elif family == "content":
            content = self.views.get_content(repo_id, rest)
            found = content_view(content) if content is not None else None
            absent = EntryView(key=key, exists=False, kind="Content", repoId=repo_id, path=rest)
        elif family == "pkg":
            package = self.scans.package(repo_id, rest)
            found = package_view(repo_id, package) if package is not None else None
            absent = EntryView(key=key, exists=False, kind="Package", repoId=repo_id, path=rest)
        else:
            return None
        if found is None:
            return absent
        return found.model_copy(
            update={"expires": False, "hasExpired": False, "stale": False, "staleLinks": []}
        )


def truncation_fields(row: FileRow) -> dict[str, str]:
    """A file entry's word on how much of the file the index holds, only when not all of it:
    `truncated` (the body the tools return stops at 64 Ki characters, and so does its outline)
    and `indexedChars` (keyword search stops there too: the file is longer than the indexed
    limit). A file held whole adds nothing (most files, so most hits cost no extra token)."""
    fields = {"truncated": "true"} if row.truncated else {}
    if row.indexed_chars is not None:
        fields["indexedChars"] = str(row.indexed_chars)
    return fields


def file_view(row: FileRow) -> EntryView:
    repo_id = str(row.repo_id)
    path = str(row.path)
    return EntryView(
        key=f"repo/{repo_id}/file/{path}",
        exists=True,
        kind="File",
        repoId=repo_id,
        path=path,
        fields={
            "digest": str(row.digest),
            "language": str(row.language),
            "sizeBytes": str(row.size),
            "lastIngested": iso_utc(float(row.ingested_at)) or "",
            **truncation_fields(row),
        },
    )


def content_view(row: ContentRow) -> EntryView:
    """A file's stored text (spec 1.2's content family): what an agent reads when the
    repository is not on its own disk (a server elsewhere). `truncated`: the stored text
    stops at the indexed limit before the file does."""
    repo_id, path = str(row.repo_id), str(row.path)
    fields = {"digest": row.digest, "language": row.language, "text": row.body}
    if row.token_count is not None:
        fields["tokenCount"] = str(row.token_count)
    if row.truncated:
        fields["truncated"] = "true"
    return EntryView(
        key=f"repo/{repo_id}/content/{path}",
        exists=True,
        kind="Content",
        repoId=repo_id,
        path=path,
        fields=fields,
    )


def symbol_view(repo_id: str, row: SymbolEntry) -> EntryView:
    """A symbol record as the entry view (scan is a bulk read: expiry/staleness null)."""
    return EntryView(
        key=f"repo/{repo_id}/symbol/{row.fq_name}",
        exists=True,
        kind="Symbol",
        repoId=repo_id,
        fullyQualifiedName=row.fq_name,
        fields={
            "digest": row.digest,
            "endLine": str(row.end_line),
            "filePath": row.path,
            "kind": row.kind,
            "signature": row.signature,
            "startLine": str(row.start_line),
        },
    )


def package_view(repo_id: str, row: PackageEntry) -> EntryView:
    return EntryView(
        key=f"repo/{repo_id}/pkg/{row.path}",
        exists=True,
        kind="Package",
        repoId=repo_id,
        path=row.path,
        fields={"fileCount": str(row.file_count)},
    )


class CommandSubmitter:
    """Append a memory command and wait, with a deadline, for the processor's verdict."""

    def __init__(
        self, log: EventLog, runtime: EmbeddedRuntime, views: ViewStore, timeout_s: float
    ) -> None:
        self.log = log
        self.runtime = runtime
        self.memory = MemoryViews(views)
        self.timeout_s = timeout_s

    async def submit(self, cmd: MemoryCommand) -> CommandResult:
        record = LogRecord(key=log_key(cmd.repo_id, cmd.topic, cmd.id), value=codec.encode(cmd))
        if cmd.op == "purge":
            record = LogRecord(key=f"{cmd.repo_id}/", value=codec.encode(cmd))
        [(partition, offset)] = await self.log.append(topics.MEMORY_COMMANDS.name, [record])
        self.runtime.notify()
        started = time.monotonic()
        if any(topics.MEMORY_COMMANDS.name in s.inputs for s in self.runtime.steps):
            ends = {(topics.MEMORY_COMMANDS.name, partition): offset + 1}
            applied = await self.runtime.wait_through(ends, self.timeout_s)
            result = self.memory.result(cmd.repo_id, cmd.command_id) if applied else None
        else:  # a query replica: the memory step runs in `repocontext worker`
            result = await self._remote_result(cmd, record.key, started + self.timeout_s)
        if result is None:
            waited = time.monotonic() - started
            raise ServiceUnavailable(
                f"the memory command {cmd.op} was accepted but its result did not arrive within "
                f"{waited:.1f} s; it may still apply: recall the key to check, and retry with "
                "the same id (retries with a caller id are idempotent)"
            )
        return result

    async def _remote_result(
        self, cmd: MemoryCommand, key: str | None, deadline: float
    ) -> CommandResult | None:
        """Wait for the verdict on memory.results.v1 as this replica's view sink applies it,
        then for memory.v1 up to where it stood (the entry was produced before the verdict),
        so a recall right after the write sees it."""
        while (result := self.memory.result(cmd.repo_id, cmd.command_id)) is None:
            if time.monotonic() > deadline:
                return None
            self.runtime.notify()
            await asyncio.sleep(0.01)
        partition = topics.partition_for(key, await self.log.partitions(topics.MEMORY.name))
        end = await self.log.end_offset(topics.MEMORY.name, partition)
        ends = {(topics.MEMORY.name, partition): end}
        if not await self.runtime.wait_through(ends, max(0.0, deadline - time.monotonic())):
            return None
        return result


def raise_for(result: CommandResult) -> CommandResult:
    """Turn a refused command into the tool error its verdict calls for."""
    if result.ok:
        return result
    message = result.message or f"{result.op} was refused"
    if result.error == "not_found":
        raise NotFoundError(message)
    if result.verdict is not None:
        raise ClaimConflict(result.verdict, message)
    if result.error == "conflict":
        raise ConflictError(message)
    raise ToolInputError(message)


class ClaimConflict(ConflictError):
    """A claim-fence refusal, carrying its verdict (spec §1.6)."""

    def __init__(self, verdict: str, message: str) -> None:
        super().__init__(f"{verdict}: {message}")
        self.verdict = verdict
