"""The memory tools: remember, update, forget, recall, scan, list_topics, neighbors.

Writes become commands on memory.commands.v1 applied by the memory processor (the single
writer per key); the tool waits for the processor's verdict with a deadline. Reads come from
the memory views; expiry is evaluated at read time against the real clock.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from processors.memory_guards import check_fields, check_links
from query_api.access.repo_paths import path_in_repo, repo_relative
from query_api.core.service import RepoContextService
from query_api.errors import ToolInputError
from query_api.memory.link_targets import LinkTargets, links_note
from query_api.memory.views import (
    CommandSubmitter,
    MemoryReader,
    file_view,
    package_view,
    raise_for,
    require_memory_key,
    symbol_view,
)
from query_api.settings import Settings
from schemas import memory_tools as m
from schemas import tools as t
from schemas import topics
from schemas.memory import (
    SETTABLE_FIELDS,
    MemoryCommand,
    memory_key,
    valid_segment,
    well_formed_key,
)
from schemas.timestamps import iso_utc
from schemas.tools import EntryView
from streams.eventlog.base import EventLog
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.scan import ScanViews
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews

SCOPES = ("Files", "Packages", "Symbols", "Memory", "MemoryTopic")


def _encode_token(key: str) -> str:
    return base64.urlsafe_b64encode(key.encode("utf-8")).decode("ascii")


def _scan_scope(args: m.ScanArgs) -> str:
    """The scope a scan names (case-insensitive), checked against the arguments it takes."""
    scope = next((s for s in SCOPES if s.lower() == args.scope.strip().lower()), None)
    if scope is None:
        raise ToolInputError(f"unknown `scope` {args.scope[:32]!r}; valid: {', '.join(SCOPES)}")
    if args.pathPrefix is not None and scope != "Files":
        raise ToolInputError("`pathPrefix` applies to scope Files only")
    if scope == "MemoryTopic" and not args.topic:
        raise ToolInputError("`topic` is required for scope MemoryTopic")
    return scope


def _after_in(after: str | None, marker: str) -> str | None:
    """The part of a continuation key after its kind marker (`/file/`, `/symbol/`, `/pkg/`);
    None when there is no key or it is of another kind."""
    return after.split(marker, 1)[1] if after and marker in after else None


def _decode_token(token: str) -> str:
    try:  # validate: without it, characters outside the alphabet are dropped silently
        key = base64.b64decode(token.encode("ascii"), altchars=b"-_", validate=True)
        return key.decode("utf-8")
    except (binascii.Error, UnicodeError, ValueError) as exc:
        raise ToolInputError("`continuationToken` is not one this server issued") from exc


@dataclass(frozen=True, slots=True)
class LinkChange:
    """A write's links as they go into its command, and what the answer says about them."""

    add: dict[str, list[str]]
    remove: dict[str, list[str]]
    digests: dict[str, str | None]  # added target -> its digest now (staleness later)
    rewritten: dict[str, str]  # a target as written -> the stored key it was rewritten to
    dangling: list[str]  # added targets that name nothing that exists now
    overloads: dict[str, list[str]]  # dangling targets naming an overloaded declaration
    shared: dict[str, list[str]]  # added symbol targets several files declare -> those files
    # added targets naming a declaration (a field) beside others of its name stored with
    # their parameters (methods) -> (its kind, their keys)
    beside: dict[str, tuple[str, list[str]]]

    def note(self) -> str | None:
        """What the answer says of the links (link_targets.links_note)."""
        return links_note(self.rewritten, self.dangling, self.overloads, self.shared, self.beside)


class MemoryService:
    def __init__(
        self,
        log: EventLog,
        views: ViewStore,
        runtime: EmbeddedRuntime,
        settings: Settings,
        core: RepoContextService,
    ) -> None:
        self.log = log
        self.views = views
        self.settings = settings
        self.core = core
        self.reader = MemoryReader(views)
        self.scans = ScanViews(views)
        self.link_targets = LinkTargets(self.reader, SymbolViews(views))
        # Per-repository state outside the log that goes with the repository (bundle sessions).
        self.on_remove: list[Callable[[str], object]] = []
        self.submitter = CommandSubmitter(log, runtime, views, settings.memory_write_timeout_s)

    def _command(
        self, op: str, repo_id: str, topic: str, id_: str, region: str | None, **kw: object
    ) -> MemoryCommand:
        return MemoryCommand.model_validate(
            {
                "op": op,
                "command_id": uuid.uuid4().hex,
                "issued_at": time.time(),
                "repo_id": repo_id,
                "topic": topic,
                "id": id_,
                "region": region or self.settings.region,
                **kw,
            }
        )

    def _default_ttl(self, repo_id: str) -> float | None:
        ttl = self.settings.memory_ttl_by_repo.get(
            repo_id, self.settings.memory_default_ttl_seconds
        )
        if ttl is not None and ttl <= 0:
            raise ToolInputError(
                f"the default memory TTL policy for {repo_id!r} is {ttl:g} s, which is not "
                "positive; fix REPOCONTEXT_MEMORY_DEFAULT_TTL_SECONDS / MEMORY_TTL_BY_REPO or pass "
                "ttlSeconds"
            )
        return ttl

    def _check_links(
        self, add: Mapping[str, list[str]] | None, remove: Mapping[str, list[str]] | None
    ) -> LinkChange:
        """The write's links, validated (a malformed target refuses the whole write), with
        targets as the keys their entries are stored under, and the digests new links capture."""
        for name, links in (("addLinks", add), ("removeLinks", remove)):
            problem = check_links(name, links or {})
            if problem:
                raise ToolInputError(problem)
        added, rewritten = self.link_targets.resolve(add)
        removed, rewritten_removed = self.link_targets.resolve(remove)
        targets = sorted({x for ts in added.values() for x in ts})
        dangling = self.link_targets.dangling(added)
        return LinkChange(
            add=added,
            remove=removed,
            digests={target: self.reader.link_digest(target) for target in targets},
            rewritten={**rewritten_removed, **rewritten},
            dangling=dangling,
            overloads=self.link_targets.overloads(dangling),
            shared=self.link_targets.shared(added),
            beside=self.link_targets.beside(added, dangling),
        )

    @staticmethod
    def _check_fields(fields: Mapping[str, str]) -> None:
        problem = check_fields(fields)
        if problem:
            raise ToolInputError(problem)

    # -- writes ----------------------------------------------------------------------------

    async def remember(self, args: m.RememberArgs) -> m.RememberResult:
        if not valid_segment(args.repoId) or not valid_segment(args.topic):
            raise ToolInputError("`repoId` and `topic` must be non-empty and contain no '/'")
        # memory belongs to a registered repository (remove_repo deletes it with the
        # repository); refused before any command reaches the log
        self.core.require_repo(args.repoId)
        id_ = args.id if args.id is not None else uuid.uuid4().hex
        if not valid_segment(id_):
            raise ToolInputError("`id` must be non-empty, without '/' or surrounding spaces")
        if args.ttlSeconds is not None and not args.ttlSeconds > 0:
            raise ToolInputError("`ttlSeconds` must be positive (omit it for a durable entry)")
        fields = {
            name: value for name in SETTABLE_FIELDS if (value := getattr(args, name)) is not None
        }
        self._check_fields(fields)
        links = self._check_links(args.addLinks, args.removeLinks)
        default_ttl = None if args.ttlSeconds is not None else self._default_ttl(args.repoId)
        cmd = self._command(
            "remember",
            args.repoId,
            args.topic,
            id_,
            args.region,
            kind=args.kind,
            fields=fields,
            add_tags=args.tags or [],
            add_links=links.add,
            remove_links=links.remove,
            link_digests=links.digests,
            ttl_seconds=args.ttlSeconds,
            default_ttl_seconds=default_ttl,
            fencing_token=args.fencingToken,
        )
        result = raise_for(await self.submitter.submit(cmd))
        expires_at = result.data.get("expiresAt")
        kept = result.data.get("kind")
        kind_note = (
            f"kind stays {kept} (fixed when the entry was created); the rest was merged"
            if args.kind is not None and kept is not None and kept != args.kind
            else None
        )
        return m.RememberResult(
            key=memory_key(args.repoId, args.topic, id_),
            repoId=args.repoId,
            topic=args.topic,
            id=id_,
            created=bool(result.data.get("created")),
            expires=expires_at is not None,
            expiresAtUtc=iso_utc(expires_at),
            linksAdded=int(result.data.get("linksAdded", 0)),
            linksRemoved=int(result.data.get("linksRemoved", 0)),
            danglingLinks=links.dangling,
            note="; ".join(
                n
                for n in (
                    kind_note,
                    links.note(),
                )
                if n
            )
            or None,
        )

    async def update(self, args: m.UpdateArgs) -> m.UpdateResult:
        repo_id, topic, id_ = require_memory_key(args.key)
        fields = dict(args.fields or {})
        for name in fields:
            if name not in SETTABLE_FIELDS:
                raise ToolInputError(
                    f"`fields.{name[:64]}` is not a settable scalar of a memory entry "
                    f"(settable: {', '.join(SETTABLE_FIELDS)})"
                )
        if "title" in fields and not fields["title"].strip():  # as remember's schema refuses it
            raise ToolInputError("`fields.title` must not be blank (omit it to keep the title)")
        self._check_fields(fields)
        links = self._check_links(args.addLinks, args.removeLinks)
        cmd = self._command(
            "update",
            repo_id,
            topic,
            id_,
            args.region,
            fields=fields,
            add_tags=args.addTags or [],
            remove_tags=args.removeTags or [],
            add_links=links.add,
            remove_links=links.remove,
            link_digests=links.digests,
            fencing_token=args.fencingToken,
        )
        result = raise_for(await self.submitter.submit(cmd))
        return m.UpdateResult(
            key=args.key,
            kind=str(result.data.get("kind", "Note")),
            fieldsUpdated=list(result.data.get("fieldsUpdated", [])),
            tagsAdded=int(result.data.get("tagsAdded", 0)),
            tagsRemoved=int(result.data.get("tagsRemoved", 0)),
            danglingLinks=links.dangling,
            note=links.note(),
        )

    async def forget(self, args: m.ForgetArgs) -> m.ForgetResult:
        repo_id, topic, id_ = require_memory_key(args.key)
        if args.lapse and not args.lapseSeconds > 0:
            raise ToolInputError("`lapseSeconds` must be positive")
        cmd = self._command(
            "forget",
            repo_id,
            topic,
            id_,
            args.region,
            lapse=args.lapse,
            lapse_seconds=args.lapseSeconds,
            fencing_token=args.fencingToken,
        )
        result = raise_for(await self.submitter.submit(cmd))
        return m.ForgetResult(
            key=args.key,
            mode="lapse" if args.lapse else "delete",
            existed=bool(result.data.get("existed")),
            expiresAtUtc=iso_utc(result.data.get("expiresAt")),
        )

    async def remove_repo(self, args: t.RepoIdArgs) -> t.RemoveRepoResult:
        """The core removal, then the repository's memory is tombstoned in the log too (the
        only thing that deletes memory)."""
        removed = (await self.core.remove_repo(args)).entriesRemoved
        # The repository's tombstone sweeps every view tree (memory_results too); let it
        # land first, or it could erase the purge's verdict before this call reads it.
        repos = topics.REPOS.name
        ends = {
            (repos, p): await self.log.end_offset(repos, p)
            for p in range(await self.log.partitions(repos))
        }
        await self.submitter.runtime.wait_through(ends, self.settings.memory_write_timeout_s)
        for forget in self.on_remove:
            await asyncio.to_thread(forget, args.repoId)
        cmd = self._command("purge", args.repoId, "", "", None)
        result = raise_for(await self.submitter.submit(cmd))
        return t.RemoveRepoResult(
            repoId=args.repoId, entriesRemoved=removed + int(result.data.get("removed", 0))
        )

    # -- reads -----------------------------------------------------------------------------

    async def recall(self, args: m.KeyArgs) -> EntryView:
        if not well_formed_key(args.key):
            raise ToolInputError(
                "`key` must be a full key: repo/{repoId}, repo/{repoId}/mem/{topic}/{id}, "
                "repo/{repoId}/file/{path}, repo/{repoId}/symbol/{name} or another family of "
                f"the key grammar (a path without . or .. segments); got {args.key[:200]!r}"
            )
        # a symbol key in the spelling outline shows answers as the key it is stored under
        view = self.reader.view_of(self.link_targets.canonical(args.key), time.time())
        return self.link_targets.as_imported([view])[0]

    async def list_topics(self, args: m.RepoArgs) -> m.ListTopicsResult:
        self.core.require_repo(args.repoId)  # as search and context: unknown is an error
        rows = self.reader.memory.topics(args.repoId, time.time())
        return m.ListTopicsResult(
            repoId=args.repoId, topics=[m.TopicCount(topic=tp, count=n) for tp, n in rows]
        )

    async def scan(self, args: m.ScanArgs) -> m.ScanResult:
        scope = _scan_scope(args)
        size = max(1, min(500, args.pageSize))
        after = _decode_token(args.continuationToken) if args.continuationToken else None
        entries = await self._scan_page(scope, args, after, size + 1)
        more = len(entries) > size
        entries = entries[:size]
        token = _encode_token(entries[-1].key) if more and entries else None
        return m.ScanResult(entries=entries, continuationToken=token, hasMore=more)

    async def _scan_page(
        self, scope: str, args: m.ScanArgs, after: str | None, limit: int
    ) -> list[EntryView]:
        """Up to `limit` entries of `scope` after the key `after`, in key order."""
        if scope in ("Memory", "MemoryTopic"):
            topic = args.topic if scope == "MemoryTopic" else None
            rows = self.reader.memory.page(args.repoId, time.time(), topic, after, limit)
            return [self.reader.memory_view(e, None, evaluate=False) for e in rows]
        if scope == "Files":
            last_path = _after_in(after, "/file/")
            prefix = self._path_prefix(args.repoId, args.pathPrefix)
            files = self.views.files_under(args.repoId, prefix, last_path, limit)
            return [file_view(f) for f in files]
        if scope == "Symbols":
            last = _after_in(after, "/symbol/")
            syms = await asyncio.to_thread(self.scans.symbols, args.repoId, last, limit)
            return self.link_targets.as_imported([symbol_view(args.repoId, r) for r in syms])
        last = _after_in(after, "/pkg/")  # Packages
        pkgs = await asyncio.to_thread(self.scans.packages, args.repoId, last, limit)
        return [package_view(args.repoId, p) for p in pkgs]

    def _path_prefix(self, repo_id: str, raw: str | None) -> str:
        """`pathPrefix` read as outline and related read a path (`./src`, `src\\app`, the
        absolute path under the indexed root; one leaving the repository is refused), its
        trailing `/` kept: `src/` holds no `src_old/`. Still a string prefix (`src/ap`)."""
        if not raw or not raw.strip():
            return ""
        registration = self.core.ingest.registrations.get(repo_id)
        if registration is None:
            row = self.views.get_repo(repo_id)
            registration = row.registration if row is not None else None
        if registration is None:  # an unknown repository: relative paths only
            prefix = repo_relative(raw, None, "pathPrefix")
        else:
            prefix = path_in_repo(raw, registration, "pathPrefix")
        folder = raw.strip().endswith(("/", "\\"))
        return prefix + "/" if prefix and folder else prefix

    async def neighbors(self, args: m.NeighborsArgs) -> m.NeighborsResult:
        require_memory_key(args.key)
        depth = max(1, min(3, args.depth))
        cap = max(1, min(100, args.maxNodes))
        now = time.time()
        # a blank relation filters nothing: no link's relation is blank, and an agent that
        # sends "" means any (it matched none, an empty answer that read as "no links")
        wanted = (args.relation or "").strip() or None
        seed = self.reader.live_entry(args.key, now)
        if seed is None:
            return m.NeighborsResult(key=args.key, exists=False, neighbors=[], truncated=False)
        seen = {args.key}
        found: list[EntryView] = []
        truncated = False
        frontier: deque[tuple[str, int]] = deque([(args.key, 0)])
        while frontier and not truncated:
            key, level = frontier.popleft()
            entry = seed if key == args.key else self.reader.live_entry(key, now)
            if entry is None or level >= depth:
                continue
            for relation, targets in sorted(entry.links.items()):
                if wanted is not None and relation != wanted:
                    continue
                for target in targets:
                    if target in seen:
                        continue
                    if len(found) >= cap:
                        truncated = True
                        break
                    seen.add(target)
                    found.append(_listed(self.reader.view_of(target, now)))
                    frontier.append((target, level + 1))
                if truncated:
                    break
        # a linked declaration named as recall, search and outline name it (its key stored)
        shown = self.link_targets.as_imported(found)
        note = None
        if wanted is not None and seed.links and wanted not in seed.links:
            # `neighbors: []` alone read as an entry with no links (a typo, `blocks`)
            relations = ", ".join(sorted(seed.links))
            note = f"{args.key} has no {wanted!r} link; its relations: {relations}"
        return m.NeighborsResult(
            key=args.key, exists=True, neighbors=shown, truncated=truncated, note=note
        )


def _listed(view: EntryView) -> EntryView:
    """An entry as a walk lists it: a content entry without its text (up to the indexed
    limit per file, 100 nodes a walk); recall of its key reads the text."""
    if view.kind != "Content" or "text" not in view.fields:
        return view
    fields = {name: value for name, value in view.fields.items() if name != "text"}
    return view.model_copy(update={"fields": fields})
