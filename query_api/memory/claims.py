"""The claim tools: claim, renew_claim, release_claim, claim_status (spec §1.5, §4.4).

Claims are commands to the memory processor, which owns the lock and the fence of each
record, so grants, FIFO order and fence stamping are decided by the single writer. A waiting
claim re-asks when the lock looks free (its ticket keeps its place in the queue) until its
`maxWaitSeconds` pass, then withdraws from the queue and reports `timeout`.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from processors.claims import lock_held
from query_api.memory.service import MemoryService
from query_api.memory.views import raise_for, require_memory_key
from schemas import memory_tools as m
from schemas.memory import CommandResult
from schemas.timestamps import iso_utc

POLL_SECONDS = 0.02


def lock_name(key: str) -> str:
    return f"repocontext/claim/{key}"


class ClaimService:
    def __init__(self, memory: MemoryService) -> None:
        self.memory = memory
        self.settings = memory.settings

    def _lease(self, requested: float | None) -> float | None:
        if requested is None:
            return None
        return max(1.0, min(requested, self.settings.claim_max_lease_seconds))

    async def _claim_once(
        self, args: m.ClaimArgs, ticket: str, wait_until: float | None
    ) -> CommandResult:
        repo_id, topic, id_ = require_memory_key(args.key)
        cmd = self.memory._command(
            "claim",
            repo_id,
            topic,
            id_,
            args.region,
            owner=args.owner,
            lease_seconds=self._lease(args.leaseSeconds),
            ticket=ticket,
            wait_until=wait_until,
        )
        return raise_for(await self.memory.submitter.submit(cmd))

    async def claim(self, args: m.ClaimArgs) -> m.ClaimResult:
        require_memory_key(args.key)
        ticket = uuid.uuid4().hex
        budget = max(0.0, self.settings.tool_timeout_s - self.settings.memory_write_timeout_s - 1)
        wait = None if args.maxWaitSeconds is None else max(0.0, min(args.maxWaitSeconds, budget))
        deadline = None if wait is None else time.time() + wait
        result = await self._claim_once(args, ticket, deadline)
        while not result.data.get("granted") and result.data.get("reason") == "contended":
            if deadline is None:
                break
            if not await self._wait_free(args.key, deadline):
                cancel = self.memory._command(
                    "cancel_wait", *require_memory_key(args.key), args.region, ticket=ticket
                )
                await self.memory.submitter.submit(cancel)
                return m.ClaimResult(
                    key=args.key, lockName=lock_name(args.key), granted=False, reason="timeout"
                )
            result = await self._claim_once(args, ticket, deadline)
        return self._claim_result(args.key, result)

    async def _wait_free(self, key: str, deadline: float) -> bool:
        """Until the lock looks free (released or lapsed) or the deadline; never a fixed wait."""
        while time.time() < deadline:
            entry = self.memory.reader.memory.get(key)
            if entry is None or not lock_held(entry, time.time()):
                return True
            until = min(deadline, entry.lock_expires_at or deadline)
            await asyncio.sleep(max(0.0, min(POLL_SECONDS, until - time.time())))
        return False

    def _claim_result(self, key: str, result: CommandResult) -> m.ClaimResult:
        d = result.data
        if not d.get("granted"):
            return m.ClaimResult(
                key=key, lockName=lock_name(key), granted=False, reason=d.get("reason")
            )
        return m.ClaimResult(
            key=key,
            lockName=lock_name(key),
            granted=True,
            fencingToken=d.get("fencingToken"),
            owner=d.get("owner"),
            region=d.get("region"),
            leaseExpiresAtUtc=iso_utc(d.get("leaseExpiresAt")),
            leaseSeconds=d.get("leaseSeconds"),
        )

    async def renew_claim(self, args: m.RenewArgs) -> m.RenewResult:
        repo_id, topic, id_ = require_memory_key(args.key)
        cmd = self.memory._command(
            "renew",
            repo_id,
            topic,
            id_,
            args.region,
            fencing_token=args.fencingToken,
            lease_seconds=self._lease(args.leaseSeconds),
        )
        result = raise_for(await self.memory.submitter.submit(cmd))
        base = self._claim_result(args.key, result)
        if not base.granted:  # superseded: nulls, never a reassuring false
            return m.RenewResult(**base.model_dump())
        return m.RenewResult(
            **base.model_dump(),
            previousLeaseExpiresAtUtc=iso_utc(result.data.get("previousLeaseExpiresAt")),
            leaseShortened=result.data.get("leaseShortened"),
        )

    async def release_claim(self, args: m.ReleaseArgs) -> m.ReleaseResult:
        repo_id, topic, id_ = require_memory_key(args.key)
        cmd = self.memory._command(
            "release", repo_id, topic, id_, args.region, fencing_token=args.fencingToken
        )
        result = raise_for(await self.memory.submitter.submit(cmd))
        return m.ReleaseResult(
            key=args.key,
            lockName=lock_name(args.key),
            released=bool(result.data.get("released")),
            fencingToken=args.fencingToken,
            reason=result.data.get("reason"),
        )

    async def claim_status(self, args: m.KeyArgs) -> m.ClaimStatusResult:
        require_memory_key(args.key)
        now = time.time()
        entry = self.memory.reader.live_entry(args.key, now)
        if entry is None:
            return m.ClaimStatusResult(
                key=args.key,
                lockName=lock_name(args.key),
                exists=False,
                claimed=False,
                isHeld=False,
                fencingToken=None,
                releasedFencingToken=None,
                owner=None,
                region=None,
                lockFencingToken=None,
                leaseExpiresAtUtc=None,
                queueDepth=0,
            )
        held = lock_held(entry, now)
        return m.ClaimStatusResult(
            key=args.key,
            lockName=lock_name(args.key),
            exists=True,
            claimed=entry.fence > entry.released_fence,
            isHeld=held,
            fencingToken=entry.fence or None,
            releasedFencingToken=entry.released_fence or None,
            owner=entry.owner,
            region=entry.region,
            lockFencingToken=entry.lock_token or None,
            leaseExpiresAtUtc=iso_utc(entry.lock_expires_at) if held else None,
            queueDepth=len([w for w in entry.queue if w.wait_until >= now]),
        )
