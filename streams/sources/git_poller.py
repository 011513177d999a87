"""The git source (spec §2.1): poll a repository URL/ref and publish exactly what changed.

Per repository: fetch `ref` (optionally shallow, `depth`) into a bare staging repository
under the data dir, resolve it to a commit, diff the last indexed commit against it and
publish to `files.v1` exactly the adds and modifies (FileUpsert, `source_revision` = the new
commit) and the deletes (tombstones). The first poll publishes the whole tree. Only after
every append is acknowledged does the staging ref `refs/repocontext/indexed` move to the new
commit (that ref also keeps its objects from gc), so a crash re-publishes (idempotently) and a
failed fetch publishes nothing: the last generation keeps serving.

Like the workspace walker: symlinks and submodules are never followed (skipped), binaries
(a NUL in the first 8000 bytes, or a PDF) are skipped, bodies are bounded with a `truncated`
flag and decoded with replacement. Credentials in a URL are never logged or put in an error or an
event: `redact()` drops the userinfo; nor are they put in git's argv, where every local user
could read them: git fetches the URL without them and reads them from its environment through
a credential helper (streams/sources/git_credentials.py). git never prompts
(core.askPass=true).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import xxhash

from processors.language import language_for_path
from schemas import codec, topics
from schemas.events import (
    FileUpsert,
    RepoRegistration,
    SourceStatus,
    decode_text,
    file_key,
    looks_binary,
)
from streams.errors import SourceError
from streams.eventlog.base import EventLog, LogRecord
from streams.runtime.log_contact import CONTACT_ERRORS, LogContact
from streams.sources.git_credentials import GitCredentials, split_credentials, without_userinfo
from streams.sources.walker import DIGEST_PREFIX, head_bytes, indexed_limit

log = logging.getLogger(__name__)
INDEXED_REF = "refs/repocontext/indexed"
FETCHED_REF = "refs/repocontext/fetched"
_BATCH = 256


def redact(url: str) -> str:
    """The URL without user:password@ (credentials never reach a log line or an event)."""
    return without_userinfo(url)


def git_failure(err: bytes, url: str, limit: int) -> str:
    """git's stderr as one line, credentials out: git says a failure over several lines
    ("fatal: ...", a blank line, "Please make sure ..."), and each would be a line of its
    own in the operator's log and in the poll's `error`. The last `limit` characters keep
    the cause, which git says last."""
    text = err.decode("utf-8", "replace").replace(url, redact(url))
    return " ".join(line.strip() for line in text.splitlines() if line.strip())[-limit:]


async def ensure_staging(staging: Path) -> None:
    """Create the bare staging repository (shared by the poller and `changed`) if absent."""
    if not (staging / "HEAD").exists():
        staging.parent.mkdir(parents=True, exist_ok=True)
        proc = await asyncio.create_subprocess_exec(
            "git", "init", "--quiet", "--bare", str(staging)
        )
        if await proc.wait() != 0:
            raise SourceError(f"cannot create staging repository {staging}")


@dataclass(frozen=True)
class GitSource:
    repo_id: str
    url: str  # may carry credentials; only `redact(url)` is ever shown
    ref: str = "HEAD"
    depth: int | None = 1
    refresh_s: float = 60.0
    credentials: GitCredentials | None = None  # used when the URL carries none


@dataclass
class PollResult:
    status: Literal["published", "unchanged", "fetch_failed"]
    commit: str | None = None
    previous: str | None = None
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    error: str | None = None


class GitPoller:
    def __init__(
        self,
        event_log: EventLog,
        source: GitSource,
        staging_root: Path,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        """`environment`: the process environment git runs with when it needs credentials
        (the composition root passes it: only settings read the environment); without it
        such a git gets PATH alone."""
        self.log = event_log
        self.environment = dict(environment) if environment is not None else {"PATH": os.defpath}
        self.source = source
        self.staging = staging_root / f"{source.repo_id}.git"
        self.fetch_url, in_url = split_credentials(source.url)
        self.credentials = in_url or source.credentials
        # what /health and /metrics report (repocontext git-source --metrics-port)
        self.polls: dict[str, int] = {}  # poll outcome -> count ("error": the poll raised)
        self.files_published = 0
        self.last_poll_at: float | None = None
        self.last_status: str | None = None
        self.contact = LogContact(f"git source {source.repo_id}")

    async def _git(self, *args: str, stdin: bytes | None = None, remote: bool = False) -> bytes:
        # core.askPass=true answers any credential prompt with nothing: git never waits on a tty
        config, env = ["-c", "core.askPass=true"], None
        if remote and self.credentials is not None:  # through the environment, not argv
            config += self.credentials.config_args()
            env = {**self.environment, "GIT_TERMINAL_PROMPT": "0", **self.credentials.environment()}
        proc = await asyncio.create_subprocess_exec(
            "git",
            *config,
            "--git-dir",
            str(self.staging),
            *args,
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        out, err = await proc.communicate(stdin)
        if proc.returncode != 0:
            message = git_failure(err, self.source.url, 500)
            raise SourceError(f"git {args[0]} failed for {redact(self.source.url)}: {message}")
        return out

    async def _ensure_staging(self) -> None:
        await ensure_staging(self.staging)

    async def register(self) -> None:
        """Publish the git registration; a repository is never both workspace and git sourced."""
        for partition in range(await self.log.partitions(topics.REPOS.name)):
            offset, current = 0, None
            while batch := await self.log.read(topics.REPOS.name, partition, offset, 500):
                for r in batch:
                    if r.key == self.source.repo_id:
                        current = codec.decode(r.topic, r.value)
                offset = batch[-1].offset + 1
            if isinstance(current, RepoRegistration) and current.source != "git":
                raise SourceError(
                    f"repository {self.source.repo_id} is workspace-sourced; remove it first"
                )
        registration = RepoRegistration(
            repo_id=self.source.repo_id,
            source="git",
            url=redact(self.source.url),
            ref=self.source.ref,
            registered_at=time.time(),
        )
        await self.log.append(
            topics.REPOS.name, [LogRecord(self.source.repo_id, codec.encode(registration))]
        )

    async def poll_once(self) -> PollResult:
        """Fetch, publish what changed, then publish the poll's `SourceStatus` (freshness)."""
        result = await self._poll()
        head = result.commit
        if head is None:  # a failed fetch: the ref's last known commit stays the best answer
            with contextlib.suppress(SourceError):
                raw = await self._git("rev-parse", "--verify", "--quiet", FETCHED_REF)
                head = raw.decode().strip() or None
        status = SourceStatus(
            repo_id=self.source.repo_id,
            ref=self.source.ref,
            head_commit=head,
            published_commit=await self._indexed(),
            status=result.status,
            error=result.error,
            checked_at=time.time(),
        )
        await self.log.append(
            topics.SOURCES.name, [LogRecord(self.source.repo_id, codec.encode(status))]
        )
        return result

    async def _poll(self) -> PollResult:
        await self._ensure_staging()
        depth = [f"--depth={self.source.depth}"] if self.source.depth else []
        try:
            await self._git(
                "fetch", "--quiet", "--no-tags", "--force", *depth,
                self.fetch_url, f"+{self.source.ref}:{FETCHED_REF}", remote=True,
            )  # fmt: skip
            commit = (await self._git("rev-parse", f"{FETCHED_REF}^{{commit}}")).decode().strip()
        except SourceError as exc:
            log.warning("%s", exc)  # the last generation keeps serving
            return PollResult(status="fetch_failed", error=str(exc))
        previous = await self._indexed()
        if previous == commit:
            return PollResult(status="unchanged", commit=commit, previous=previous)
        result = PollResult(status="published", commit=commit, previous=previous)
        upserts = await self._changes(previous, commit, result)
        records: list[LogRecord] = [
            LogRecord(file_key(self.source.repo_id, p), None) for p in result.deleted
        ]
        for path, blob in upserts:
            key = file_key(self.source.repo_id, path)
            event = await self._event(path, blob, commit)
            if event is not None:
                records.append(LogRecord(key, codec.encode(event)))
            elif path in result.added:  # binary: never published
                result.added.remove(path)
            else:  # became binary: what was published goes
                result.modified.remove(path)
                result.deleted.append(path)
                records.append(LogRecord(key, None))
        for start in range(0, len(records), _BATCH):
            await self.log.append(topics.FILES.name, records[start : start + _BATCH])
        await self._git("update-ref", INDEXED_REF, commit)  # only once everything is acked
        log.info(
            "git %s@%s: %s -> %s (+%d ~%d -%d)", self.source.repo_id, self.source.ref,
            (previous or "none")[:12], commit[:12],
            len(result.added), len(result.modified), len(result.deleted),
        )  # fmt: skip
        return result

    async def _indexed(self) -> str | None:
        try:
            return (
                (await self._git("rev-parse", "--verify", "--quiet", INDEXED_REF)).decode().strip()
            )
        except SourceError:
            return None

    async def _changes(
        self, previous: str | None, commit: str, result: PollResult
    ) -> list[tuple[str, str]]:
        """(path, blob id) to upsert; fills result.added/modified/deleted."""
        if previous is None:
            listed: list[tuple[str, str]] = []
            raw = await self._git("ls-tree", "-r", "-z", "--full-tree", commit)
            for entry in raw.split(b"\0"):
                if not entry:
                    continue
                meta, path = entry.split(b"\t", 1)
                mode, kind, blob = meta.decode().split()
                if kind == "blob" and mode in ("100644", "100755"):
                    listed.append((path.decode("utf-8", "surrogateescape"), blob))
                    result.added.append(listed[-1][0])
            return listed
        raw = await self._git(
            "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", previous, commit
        )
        fields = raw.split(b"\0")
        out: list[tuple[str, str]] = []
        for i in range(0, len(fields) - 1, 2):
            line, path_raw = fields[i].decode(), fields[i + 1].decode("utf-8", "surrogateescape")
            _old_mode, new_mode, _old_blob, new_blob, status = line.lstrip(":").split()
            regular = new_mode in ("100644", "100755")
            if status == "D" or not regular:  # a file that became a symlink/submodule: gone
                result.deleted.append(path_raw)
            elif status == "A":
                result.added.append(path_raw)
                out.append((path_raw, new_blob))
            else:  # M, T (type change to a regular file)
                result.modified.append(path_raw)
                out.append((path_raw, new_blob))
        return out

    async def _event(self, path: str, blob: str, commit: str) -> FileUpsert | None:
        data = await self._git("cat-file", "blob", blob)
        if looks_binary(data):
            return None
        limit = indexed_limit()
        cut = head_bytes(limit)  # the walker's bound: a huge blob decodes only its head
        body, errors = decode_text(data[:cut], len(data) <= cut, limit)
        return FileUpsert(
            repo_id=self.source.repo_id,
            path=path,
            digest=DIGEST_PREFIX + xxhash.xxh3_128(data).hexdigest(),
            size=len(data),
            mtime_ns=0,  # git keeps no mtimes; the commit is the revision
            language=language_for_path(path),
            body=body[:limit],
            truncated=len(body) > limit,
            decode_errors=errors,
            source_revision=commit,
            observed_at=time.time(),
        )

    def _count(self, status: str) -> None:
        self.polls[status] = self.polls.get(status, 0) + 1
        self.last_poll_at, self.last_status = time.time(), status

    async def run(self, stop: asyncio.Event) -> None:
        """Poll every `refresh_s` until `stop`; failures are logged and retried next round."""
        await self.register()
        while not stop.is_set():
            try:
                result = await self.poll_once()
            except CONTACT_ERRORS as exc:  # the broker is away: one line per outage
                self.contact.failed(exc)
                self._count("error")
            except Exception:
                log.exception("git poll of %s failed", self.source.repo_id)
                self._count("error")
            else:
                self.contact.succeeded()
                self._count(result.status)
                self.files_published += len(result.added) + len(result.modified)
                self.files_published += len(result.deleted)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.source.refresh_s)
