"""The claim tools: claim, renew_claim, release_claim, claim_status (spec §1.5, §4.4).

Claims are commands to the memory processor, which owns the lock and the fence of each
record, so grants, FIFO order and fence stamping are decided by the single writer. A waiting
claim re-asks when the lock looks free (its ticket keeps its place in the queue) until its
`maxWaitSeconds` pass, then withdraws from the queue and reports `timeout`.

A call has a deadline (REPOCONTEXT_TOOL_TIMEOUT_S), so the wait is capped below it and the
answer says so. A claim whose caller goes away (notifications/cancelled, a closed session,
the call's deadline) withdraws too: its ticket leaves the queue, and a grant that raced with
the cancellation is released at once, since nobody will ever see its token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from dataclasses import dataclass

from processors.claims import lock_held
from query_api.memory.service import MemoryService
from query_api.memory.views import raise_for, require_memory_key
from schemas import memory_tools as m
from schemas.memory import CommandResult, MemoryCommand
from schemas.timestamps import iso_utc
from streams.stores.read_budget import unbudgeted_context

log = logging.getLogger(__name__)
POLL_SECONDS = 0.02


def lock_name(key: str) -> str:
    return f"repocontext/claim/{key}"


@dataclass(slots=True)
class _Attempt:
    """One claim call's place in the queue (`ticket`) and its latest claim command, whose
    submission runs as its own task: a cancelled caller must not cancel a command already
    in the log, or its verdict (possibly a grant) would be lost with the caller."""

    ticket: str
    command: MemoryCommand | None = None
    pending: asyncio.Future[CommandResult] | None = None


class ClaimService:
    def __init__(self, memory: MemoryService) -> None:
        self.memory = memory
        self.settings = memory.settings
        self._withdrawals: set[asyncio.Future[None]] = set()  # kept alive past their callers

    def _lease(self, requested: float | None) -> float | None:
        if requested is None:
            return None
        return max(1.0, min(requested, self.settings.claim_max_lease_seconds))

    def wait_cap(self) -> float:
        """The longest wait a call can afford: it must answer within the tool deadline,
        leaving room for its last claim command's verdict and a second to answer."""
        s = self.settings
        return max(0.0, s.tool_timeout_s - s.memory_write_timeout_s - 1)

    async def _claim_once(
        self, args: m.ClaimArgs, attempt: _Attempt, wait_until: float | None
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
            ticket=attempt.ticket,
            wait_until=wait_until,
        )
        attempt.command = cmd
        attempt.pending = asyncio.ensure_future(self.memory.submitter.submit(cmd))
        return raise_for(await asyncio.shield(attempt.pending))

    async def claim(self, args: m.ClaimArgs) -> m.ClaimResult:
        """Claim, waiting in the queue when asked. Whatever ends the call early (a
        cancellation, a closed session, the deadline, an error) withdraws the claim before
        the call ends, shielded so that a second cancellation cannot stop it halfway."""
        require_memory_key(args.key)
        attempt = _Attempt(ticket=uuid.uuid4().hex)
        try:
            return await self._claim(args, attempt)
        except BaseException:  # cancelled, the caller gone, or failed: no token reaches anyone
            if attempt.command is None:  # nothing was sent: nothing to withdraw
                raise
            # outside the call's read budget: the call ends (and its budget with it) before
            # the withdrawal does, and an ended budget interrupts every read it makes
            withdrawal = asyncio.get_running_loop().create_task(
                self._withdraw(args, attempt), context=unbudgeted_context()
            )
            self._withdrawals.add(withdrawal)
            withdrawal.add_done_callback(self._withdrawals.discard)
            with contextlib.suppress(asyncio.CancelledError):  # cancelled again: it runs on
                await asyncio.shield(withdrawal)
            raise

    async def _claim(self, args: m.ClaimArgs, attempt: _Attempt) -> m.ClaimResult:
        asked = args.maxWaitSeconds
        wait = None if asked is None else max(0.0, min(asked, self.wait_cap()))
        deadline = None if wait is None else time.time() + wait
        result = await self._claim_once(args, attempt, deadline)
        while not result.data.get("granted") and result.data.get("reason") == "contended":
            if deadline is None:
                break
            if not await self._wait_free(args.key, deadline):
                await self._cancel_wait(args, attempt.ticket)
                return m.ClaimResult(
                    key=args.key,
                    lockName=lock_name(args.key),
                    granted=False,
                    reason="timeout",
                    note=self._cap_note(asked, wait),
                )
            result = await self._claim_once(args, attempt, deadline)
        return self._claim_result(args.key, result)

    def _cap_note(self, asked: float | None, wait: float | None) -> str | None:
        """What a timeout says when the call's deadline cut the asked wait short: without
        it, a caller that asked for 60 s and got `timeout` after 19 s cannot tell why."""
        if asked is None or wait is None or asked <= wait:
            return None
        return (
            f"maxWaitSeconds {asked:g} was capped at {wait:g} s: a call answers within "
            f"{self.settings.tool_timeout_s:g} s (REPOCONTEXT_TOOL_TIMEOUT_S); claim again to "
            "keep waiting (a new claim joins the back of the queue)"
        )

    async def _cancel_wait(self, args: m.ClaimArgs, ticket: str) -> None:
        cancel = self.memory._command(
            "cancel_wait", *require_memory_key(args.key), args.region, ticket=ticket
        )
        await self.memory.submitter.submit(cancel)

    async def _withdraw(self, args: m.ClaimArgs, attempt: _Attempt) -> None:
        """Take an abandoned claim's ticket out of the queue and hand back a grant its
        caller will never see. The last claim command's verdict is awaited first, so the
        cancel_wait after it is applied after it: no grant can follow the withdrawal (only
        a claim command grants, and this call sends no more)."""
        try:
            result = None
            if attempt.pending is not None:
                with contextlib.suppress(Exception):  # no verdict in time: read it below
                    result = await attempt.pending
            await self._cancel_wait(args, attempt.ticket)
            if result is None and attempt.command is not None:
                result = self.memory.submitter.memory.result(
                    attempt.command.repo_id, attempt.command.command_id
                )
            if result is not None and result.ok and result.data.get("granted"):
                release = self.memory._command(
                    "release",
                    *require_memory_key(args.key),
                    args.region,
                    fencing_token=result.data.get("fencingToken"),
                )
                await self.memory.submitter.submit(release)
        except Exception:
            log.warning("an abandoned claim on %s could not be withdrawn", args.key, exc_info=True)

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
