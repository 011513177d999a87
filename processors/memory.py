"""The memory processor: the single writer of memory.v1 (DESIGN §4).

Applies one memory command to the current entry of its key and emits the new entry (or a
tombstone) plus the command's result. Pure and deterministic: time is the command's
`issued_at`, fencing tokens are the command's log position, and the current entries come in
as a read-only mapping the runtime keeps from memory.v1 (`state_topic`). Replaying the same
commands over the same state yields the same records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from processors import claims
from processors.base import Emit
from processors.memory_terms import memory_terms
from schemas import topics
from schemas.memory import CommandResult, MemoryCommand, MemoryEntry, log_key
from schemas.timestamps import iso_utc

MAX_LEASE_SECONDS = 1800.0  # the container's clamp (spec §1.5: library 5 min, container 30 min)
# An entry's link targets across writes (one write carries at most 32 x 256): past this a write
# that adds links is refused, so a scan or a recall of one entry stays an answer an agent holds.
MAX_ENTRY_LINKS = 1024
# An entry's tags across writes (one write carries at most 256), for the same reason.
MAX_ENTRY_TAGS = 256


def _link_count(entry: MemoryEntry) -> int:
    return sum(len(targets) for targets in entry.links.values())


def _expiry_max(a: float | None, b: float | None) -> float | None:
    """Later absolute expiry wins, with durable (None) as the bottom (spec §4.2)."""
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def _merge_links(
    links: dict[str, list[str]], add: Mapping[str, list[str]], remove: Mapping[str, list[str]]
) -> tuple[dict[str, list[str]], int, int, set[str]]:
    merged = {rel: list(targets) for rel, targets in links.items()}
    removed = 0
    for rel, targets in remove.items():
        have = merged.get(rel, [])
        for target in targets:
            if target in have:
                have.remove(target)
                removed += 1
        if rel in merged and not have:
            del merged[rel]
    added = 0
    linked: set[str] = set()
    for rel, targets in add.items():
        have = merged.setdefault(rel, [])
        for target in targets:
            linked.add(target)
            if target not in have:
                have.append(target)
                added += 1
    return {rel: sorted(t) for rel, t in sorted(merged.items())}, added, removed, linked


class MemoryProcessor:
    """Commands on memory.commands.v1 -> entries on memory.v1 + results on memory.results.v1."""

    name = "memory"
    state_topic = topics.MEMORY.name  # the runtime feeds current entries of this topic

    def __init__(self, max_lease_seconds: float = MAX_LEASE_SECONDS) -> None:
        self.max_lease_seconds = max_lease_seconds

    def process_keyed(
        self,
        state: Mapping[str, BaseModel | None],
        key: str | None,
        event: BaseModel | None,
        position: int,
    ) -> list[Emit]:
        if not isinstance(event, MemoryCommand):
            return []  # command tombstones (retention) carry nothing to apply
        cmd = event
        if cmd.op == "purge":
            return self._purge(state, cmd)
        lkey = log_key(cmd.repo_id, cmd.topic, cmd.id)
        current = state.get(lkey)
        if cmd.op == "rederive":
            return self._rederive(lkey, current)
        if isinstance(current, MemoryEntry) and position <= current.applied_position:
            # At-least-once delivery (a worker died after producing, before committing): this
            # command already made the current entry; its entry and result are in the log.
            return []
        entry = current if isinstance(current, MemoryEntry) else None
        if entry is not None and entry.expires_at is not None and entry.expires_at <= cmd.issued_at:
            entry = None  # expired by the command's time: as good as absent
        if cmd.op == "import":
            new, result = self._import(entry, cmd)
        else:
            new, result = self._apply(entry, cmd, position)
        if new is not None and new is not entry:
            terms = memory_terms(new)  # what the views index, derived with every new state
            new = new.model_copy(update={"applied_position": position, "search_terms": terms})
        emits: list[Emit] = []
        if new is not entry or (new is None and current is not None and cmd.op == "forget"):
            emits.append(Emit(topics.MEMORY.name, lkey, new))
        emits.append(Emit(topics.MEMORY_RESULTS.name, f"{cmd.repo_id}/{cmd.command_id}", result))
        return emits

    def migrations(self, state: Mapping[str, BaseModel | None]) -> list[Emit]:
        """A `rederive` command per entry written before entries carried their search terms
        (memory.v1 is compacted, so such an entry stays until it changes again)."""
        return [
            Emit(
                topics.MEMORY_COMMANDS.name,
                lkey,
                MemoryCommand(
                    op="rederive",
                    command_id=f"rederive-{entry.applied_position}",
                    issued_at=entry.updated_at,
                    repo_id=entry.repo_id,
                    topic=entry.topic,
                    id=entry.id,
                ),
            )
            for lkey, entry in sorted(state.items())
            if isinstance(entry, MemoryEntry) and entry.search_terms is None
        ]

    @staticmethod
    def _rederive(lkey: str, current: BaseModel | None) -> list[Emit]:
        """The entry again with its search terms, when it still lacks them (a repeated or
        outdated command changes nothing); no result: no caller waits for one."""
        if not isinstance(current, MemoryEntry) or current.search_terms is not None:
            return []
        derived = current.model_copy(update={"search_terms": memory_terms(current)})
        return [Emit(topics.MEMORY.name, lkey, derived)]

    def _purge(self, state: Mapping[str, BaseModel | None], cmd: MemoryCommand) -> list[Emit]:
        prefix = f"{cmd.repo_id}/"
        gone = sorted(k for k, v in state.items() if k.startswith(prefix) and v is not None)
        emits = [Emit(topics.MEMORY.name, k, None) for k in gone]
        result = self._result(cmd, True, data={"removed": len(gone)})
        emits.append(Emit(topics.MEMORY_RESULTS.name, f"{cmd.repo_id}/{cmd.command_id}", result))
        return emits

    @staticmethod
    def _result(cmd: MemoryCommand, ok: bool, **kw: Any) -> CommandResult:
        return CommandResult(
            command_id=cmd.command_id,
            repo_id=cmd.repo_id,
            op=cmd.op,
            ok=ok,
            issued_at=cmd.issued_at,
            **kw,
        )

    def _apply(
        self, entry: MemoryEntry | None, cmd: MemoryCommand, position: int
    ) -> tuple[MemoryEntry | None, CommandResult]:
        key = f"repo/{cmd.repo_id}/mem/{cmd.topic}/{cmd.id}"
        if cmd.op in ("update", "forget", "claim", "renew", "release") and entry is None:
            if cmd.op == "forget":
                return None, self._result(cmd, True, data={"existed": False})
            if cmd.op in ("claim", "release", "renew"):
                reason = "missing" if cmd.op != "renew" else "superseded"
                data = {"granted": False, "released": False, "reason": reason}
                return None, self._result(cmd, True, data=data)
            return None, self._result(
                cmd, False, error="not_found", message=f"no memory entry {key!r}"
            )
        if cmd.op in ("remember", "update", "forget") and entry is not None:
            verdict = claims.admit(entry, cmd.fencing_token, cmd.region)
            if verdict is not None:
                return entry, self._result(
                    cmd,
                    False,
                    error="conflict",
                    verdict=verdict,
                    message=_VERDICT_MESSAGES[verdict].format(key=key),
                )
        refused = self._too_many_links(entry, cmd, key) or self._too_many_tags(entry, cmd, key)
        if refused is not None:
            return entry, refused
        if cmd.op == "remember":
            return self._remember(entry, cmd)
        assert entry is not None
        if cmd.op == "update":
            return self._update(entry, cmd)
        if cmd.op == "forget":
            if not cmd.lapse:
                return None, self._result(cmd, True, data={"existed": True, "expiresAt": None})
            expires = _expiry_max(entry.expires_at, cmd.issued_at + cmd.lapse_seconds)
            lapsed = entry.model_copy(update={"expires_at": expires, "updated_at": cmd.issued_at})
            return lapsed, self._result(cmd, True, data={"existed": True, "expiresAt": expires})
        if cmd.op == "claim":
            new, data = claims.claim(entry, cmd, position, self.max_lease_seconds)
        elif cmd.op == "renew":
            new, data = claims.renew(entry, cmd, self.max_lease_seconds)
        elif cmd.op == "release":
            new, data = claims.release(entry, cmd)
        else:  # cancel_wait
            new, data = claims.cancel_wait(entry, cmd), {}
        if new == entry:
            new = entry
        return new, self._result(cmd, True, data=data)

    def _too_many_links(
        self, entry: MemoryEntry | None, cmd: MemoryCommand, key: str
    ) -> CommandResult | None:
        """The refusal of a remember or update whose added links would take the entry past
        MAX_ENTRY_LINKS (a write that only removes, or stays under, passes)."""
        if cmd.op not in ("remember", "update") or not cmd.add_links:
            return None
        if entry is None:
            before, after = 0, sum(len(set(targets)) for targets in cmd.add_links.values())
        else:
            before, after = _link_count(entry), _link_count(self._merge(entry, cmd)[0])
        if after <= MAX_ENTRY_LINKS or after <= before:
            return None
        message = (
            f"{key!r} would link {after} targets; an entry links at most {MAX_ENTRY_LINKS} "
            "(remove some with removeLinks, or link a memory entry that groups them)"
        )
        return self._result(cmd, False, error="invalid", message=message)

    def _too_many_tags(
        self, entry: MemoryEntry | None, cmd: MemoryCommand, key: str
    ) -> CommandResult | None:
        """The refusal of a remember or update whose added tags would take the entry past
        MAX_ENTRY_TAGS (a write that only removes, or stays under, passes)."""
        if cmd.op not in ("remember", "update") or not cmd.add_tags:
            return None
        before = [] if entry is None else entry.tags
        kept = {t for t in before if t not in cmd.remove_tags}
        after = len(kept | set(cmd.add_tags))
        if after <= MAX_ENTRY_TAGS or after <= len(before):
            return None
        message = (
            f"{key!r} would hold {after} tags; an entry holds at most {MAX_ENTRY_TAGS} "
            "(remove some with removeTags)"
        )
        return self._result(cmd, False, error="invalid", message=message)

    def _import(
        self, entry: MemoryEntry | None, cmd: MemoryCommand
    ) -> tuple[MemoryEntry | None, CommandResult]:
        """Merge an exported entry: the newer `updated_at` wins wholesale (a tie keeps the local
        one, so importing twice changes nothing); an entry already expired at the command's
        time is skipped. Claim registers (fence, lock, queue) stay local: fencing tokens are
        positions in this log and mean nothing in another."""
        incoming = cmd.entry
        if incoming is None or (incoming.repo_id, incoming.topic, incoming.id) != (
            cmd.repo_id,
            cmd.topic,
            cmd.id,
        ):
            message = "an import command must carry the entry of its own key"
            return entry, self._result(cmd, False, error="invalid", message=message)
        if incoming.expires_at is not None and incoming.expires_at <= cmd.issued_at:
            return entry, self._result(cmd, True, data={"imported": False, "reason": "expired"})
        if entry is not None and entry.updated_at >= incoming.updated_at:
            same = entry.model_dump(include=_CONTENT) == incoming.model_dump(include=_CONTENT)
            reason = "unchanged" if same else "local_newer"
            return entry, self._result(cmd, True, data={"imported": False, "reason": reason})
        content = incoming.model_dump(include=_CONTENT)
        if entry is None:
            new = MemoryEntry(repo_id=cmd.repo_id, topic=cmd.topic, id=cmd.id, **content)
        else:
            new = entry.model_copy(update=content)
        return new, self._result(cmd, True, data={"imported": True, "created": entry is None})

    def _remember(
        self, entry: MemoryEntry | None, cmd: MemoryCommand
    ) -> tuple[MemoryEntry, CommandResult]:
        created = entry is None
        if entry is None:
            ttl = cmd.ttl_seconds if cmd.ttl_seconds is not None else cmd.default_ttl_seconds
            entry = MemoryEntry(
                repo_id=cmd.repo_id,
                topic=cmd.topic,
                id=cmd.id,
                kind=cmd.kind or "Note",
                fields={"createdAt": iso_utc(cmd.issued_at)},
                created_at=cmd.issued_at,
                updated_at=cmd.issued_at,
                expires_at=None if ttl is None else cmd.issued_at + ttl,
            )
        elif cmd.ttl_seconds is not None:
            entry = entry.model_copy(
                update={
                    "expires_at": _expiry_max(entry.expires_at, cmd.issued_at + cmd.ttl_seconds)
                }
            )
        new, added, removed = self._merge(entry, cmd)
        return new, self._result(
            cmd,
            True,
            data={
                "created": created,
                "expiresAt": new.expires_at,
                "linksAdded": added,
                "linksRemoved": removed,
                "kind": new.kind,
            },
        )

    def _update(self, entry: MemoryEntry, cmd: MemoryCommand) -> tuple[MemoryEntry, CommandResult]:
        new, _, _ = self._merge(entry, cmd)
        tags_added = len([t for t in dict.fromkeys(cmd.add_tags) if t not in entry.tags])
        tags_removed = len([t for t in dict.fromkeys(cmd.remove_tags) if t in entry.tags])
        return new, self._result(
            cmd,
            True,
            data={
                "kind": new.kind,
                "fieldsUpdated": sorted(cmd.fields),
                "tagsAdded": tags_added,
                "tagsRemoved": tags_removed,
            },
        )

    @staticmethod
    def _merge(entry: MemoryEntry, cmd: MemoryCommand) -> tuple[MemoryEntry, int, int]:
        fields = {**entry.fields, **cmd.fields}
        tags = [t for t in entry.tags if t not in cmd.remove_tags]
        for tag in cmd.add_tags:  # add wins: a tag both added and removed stays
            if tag not in tags:
                tags.append(tag)
        links, added, removed, linked = _merge_links(entry.links, cmd.add_links, cmd.remove_links)
        live = {t for targets in links.values() for t in targets}
        digests = {t: d for t, d in entry.link_digests.items() if t in live}
        for target in linked:
            digests[target] = cmd.link_digests.get(target)
        new = entry.model_copy(
            update={
                "fields": fields,
                "tags": sorted(tags),
                "links": links,
                "link_digests": dict(sorted(digests.items())),
                "updated_at": cmd.issued_at,
            }
        )
        return new, added, removed


# What an import carries over (everything but the claim registers).
_CONTENT = {
    "kind",
    "fields",
    "tags",
    "links",
    "link_digests",
    "created_at",
    "updated_at",
    "expires_at",
}

_VERDICT_MESSAGES = {
    "ClaimRequired": "{key} is claimed and the claim was not released (its lease may have "
    "lapsed): pass the fencingToken you were granted, or claim it first (repocontext_claim)",
    "StaleToken": "{key}: your fencingToken is below the record's fence; another claim "
    "superseded yours, stop writing",
    "UnissuedToken": "{key}: that fencingToken was never issued to the current lock holder",
    "ClaimReleased": "{key}: the claim for that fencingToken was released; claim it again first",
    "ForeignRegion": "{key} is claimed from another region; write from the claim's region",
}
