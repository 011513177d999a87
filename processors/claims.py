"""Claims over memory records: fence admission (spec §1.6) and the lock they mirror (§4.4).

Pure functions over a MemoryEntry. Fencing tokens are the log position of the claim command
that was granted (offset + 1 in the key's partition): the log only grows, so tokens only
increase, across restarts and replays, without a clock or an in-process counter.
"""

from __future__ import annotations

from schemas.memory import MemoryCommand, MemoryEntry, Verdict, Waiter

DEFAULT_LEASE_SECONDS = 30.0


def admit(entry: MemoryEntry, token: int | None, region: str) -> Verdict | None:
    """None = the write is admitted; otherwise the verdict that refuses it.

    Never reads lease expiry: a lapsed holder still writes until someone else claims and
    stamps a higher token.
    """
    if entry.fence == 0:  # never claimed: any write, token or not
        return None
    live = entry.fence > entry.released_fence
    if token is None:
        return "ClaimRequired" if live else None
    if token < entry.fence:
        return "StaleToken"
    if not live:
        return "ClaimReleased"
    if token > entry.fence:
        # Naming a bigger integer is not a claim: the lock must hold exactly that token.
        held = entry.lock_owner is not None and entry.lock_token == token
        return None if held else "UnissuedToken"
    if region != entry.region:
        return "ForeignRegion"
    return None


def lock_held(entry: MemoryEntry, now: float) -> bool:
    return (
        entry.lock_owner is not None
        and entry.lock_expires_at is not None
        and entry.lock_expires_at > now
    )


def clamp_lease(requested: float | None, max_lease: float) -> float:
    lease = DEFAULT_LEASE_SECONDS if requested is None else requested
    return max(1.0, min(lease, max_lease))


def _prune(queue: list[Waiter], now: float) -> list[Waiter]:
    return [w for w in queue if w.wait_until >= now]


def claim(
    entry: MemoryEntry, cmd: MemoryCommand, position: int, max_lease: float
) -> tuple[MemoryEntry, dict[str, object]]:
    """Grant the lock (stamping the fence) or queue/refuse; returns (entry, result data)."""
    now = cmd.issued_at
    queue = _prune(entry.queue, now)
    ticket = cmd.ticket or cmd.command_id
    ahead = [w for w in queue if w.ticket != ticket]
    first = queue[0].ticket == ticket if queue else True
    if lock_held(entry, now) or (ahead and not first):
        if (
            cmd.wait_until is not None
            and cmd.wait_until >= now
            and all(w.ticket != ticket for w in queue)
        ):
            queue.append(Waiter(ticket=ticket, owner=cmd.owner or "", wait_until=cmd.wait_until))
        return entry.model_copy(update={"queue": queue}), {
            "granted": False,
            "reason": "contended",
            "queueDepth": len(queue),
        }
    lease = clamp_lease(cmd.lease_seconds, max_lease)
    token = position
    updated = entry.model_copy(
        update={
            "queue": [w for w in queue if w.ticket != ticket],
            "fence": max(entry.fence, token),
            "owner": cmd.owner,
            "region": cmd.region,
            "lock_token": token,
            "lock_owner": cmd.owner,
            "lock_expires_at": now + lease,
        }
    )
    return updated, {
        "granted": True,
        "fencingToken": token,
        "owner": cmd.owner,
        "region": cmd.region,
        "leaseExpiresAt": now + lease,
        "leaseSeconds": lease,
    }


def cancel_wait(entry: MemoryEntry, cmd: MemoryCommand) -> MemoryEntry:
    ticket = cmd.ticket or cmd.command_id
    kept = [w for w in _prune(entry.queue, cmd.issued_at) if w.ticket != ticket]
    return entry.model_copy(update={"queue": kept})


def renew(
    entry: MemoryEntry, cmd: MemoryCommand, max_lease: float
) -> tuple[MemoryEntry, dict[str, object]]:
    """Extend the lease without changing the token; `superseded` when the lock moved on."""
    token = cmd.fencing_token
    if entry.lock_owner is None or entry.lock_token != token:
        return entry, {"granted": False, "reason": "superseded"}
    lease = clamp_lease(cmd.lease_seconds, max_lease)
    previous = entry.lock_expires_at
    expires = cmd.issued_at + lease
    updated = entry.model_copy(update={"lock_expires_at": expires})
    return updated, {
        "granted": True,
        "fencingToken": token,
        "owner": entry.lock_owner,
        "region": entry.region,
        "leaseExpiresAt": expires,
        "leaseSeconds": lease,
        "previousLeaseExpiresAt": previous,
        "leaseShortened": None if previous is None else expires < previous,
    }


def release(entry: MemoryEntry, cmd: MemoryCommand) -> tuple[MemoryEntry, dict[str, object]]:
    """Release the lock (idempotent) and, only for the current fence, raise the released mark."""
    token = cmd.fencing_token or 0
    update: dict[str, object] = {}
    if entry.lock_owner is not None and entry.lock_token == token:
        update.update(lock_owner=None, lock_expires_at=None)
    live = entry.fence > entry.released_fence
    if entry.fence == 0 or not live:
        reason: str | None = "unclaimed"
        released = False
    elif token != entry.fence:
        reason, released = "stale", False
    else:
        update["released_fence"] = entry.fence  # never lowered: fence only grows
        reason, released = None, True
    return entry.model_copy(update=update), {
        "released": released,
        "fencingToken": token,
        "reason": reason,
    }
