"""What a bundle's reuse and accounting rest on (spec §3.7): content hashes, unit receipts,
`known` claims, the usage window `repocontext_stats` reports, and the freshness a retry
budget must still fit."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import deque

from schemas import tools as t

RECEIPT_HEX = 16
CONTENT_HASH_HEX = 16
_SAMPLE_COMMIT = "3f9a2c1e0b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"
_SAMPLE_TIME = "2026-11-30T22:01:02.123456Z"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_digest(text: str) -> str:
    """A body's `contentHash`: the first CONTENT_HASH_HEX digits of the reference's SHA-256.
    It is only echoed back in `known` claims (which also take the full SHA-256 a caller may
    compute itself, by those digits), and the full 64 cost a whole file's entry ~40 tokens,
    the most of any field: 64 bits tell one file's versions apart."""
    return sha256_hex(text)[:CONTENT_HASH_HEX]


def receipt_of(repo_id: str, path: str, content_hash: str, kind: str, unit_key: str) -> str:
    """The reference's SHA-256 over the unit's identity, its first RECEIPT_HEX digits: a
    receipt is only ever echoed back, and 64 bits tell units apart at a quarter of the
    tokens (33 -> 8 per unit, on every unit of every bundle)."""
    joined = "\x00".join((repo_id, path, content_hash, kind, unit_key))
    return sha256_hex(joined)[:RECEIPT_HEX]


def possession_token(path: str, content_hash: str) -> str:
    """What a session records for a file it was sent whole (spec §3.7: path NUL hash)."""
    return f"{path}\x00{content_hash}"


def worst_freshness(fresh: t.Freshness) -> t.Freshness:
    """`fresh` grown to the largest it can plausibly become before the caller's next call
    (numbers of 13 digits, every field its kind of source can fill, filled), so that a
    `retryBudgetTokens` computed with it still fits then."""
    git = fresh.indexedCommit is not None or fresh.sourceCommit is not None
    big = 10**12
    return fresh.model_copy(
        update={
            "appliedOffsets": max(fresh.appliedOffsets or 0, big),
            "logEndOffsets": max(fresh.logEndOffsets or 0, big),
            "eventsBehind": max(fresh.eventsBehind, big),
            "secondsBehind": 123456789.123456,
            "pendingFiles": None if git else max(fresh.pendingFiles or 0, 10**9),
            "indexedCommit": fresh.indexedCommit or (_SAMPLE_COMMIT if git else None),
            "sourceCommit": fresh.sourceCommit or (_SAMPLE_COMMIT if git else None),
            "sourceCheckedAt": fresh.sourceCheckedAt or (_SAMPLE_TIME if git else None),
        }
    )


def parse_known(claims: list[str]) -> set[tuple[str, str]]:
    """`path@hash` claims split on the last '@', the hash as a `contentHash` (a full SHA-256
    by its first digits); malformed ones are dropped (fail closed)."""
    parsed = set()
    for claim in claims:
        path, sep, digest = claim.rpartition("@")
        well_formed = len(digest) in (CONTENT_HASH_HEX, 64) and all(c in _HEX for c in digest)
        if sep and path and well_formed:
            parsed.add((path, digest[:CONTENT_HASH_HEX]))
    return parsed


def unhonoured_note(claims: list[str] | None, held: set[tuple[str, str]]) -> str | None:
    """Why `known` claims left files to be sent anyway (spec §3.7 ignores them silently, and
    a QA pass read a correct hash of a file it held sent again without a word): a claim counts
    only for a version this session was sent whole."""
    if not claims:
        return None
    parsed = parse_known(claims)
    ignored = len(parsed - held)
    malformed = len(set(claims)) - len(parsed)
    if not ignored and not malformed:
        return None
    parts = []
    if ignored:
        parts.append(
            f"{ignored} of {len(parsed)} known {_claims(len(parsed))} not honoured: a claim counts"
            " only for a file this session was sent whole, in that version (none without a"
            " session)"
        )
    if malformed:
        # QA on hyperium/hyper: a search hit's `xx128:` digest, passed as a claim, read as a
        # plain refusal; the hash a claim names is a bundle entry's contentHash
        parts.append(
            f"{malformed} known {_claims(malformed)} not of the form path@<contentHash>"
            f" ignored ({CONTENT_HASH_HEX} hex digits, or the full SHA-256: the contentHash of"
            " an entry sent whole, not a search hit's digest)"
        )
    return "; ".join(parts)


def _claims(count: int) -> str:
    return "claim" if count == 1 else "claims"


def malformed_seen_note(seen: list[str] | None) -> str | None:
    """Why `seen` receipts left nothing out, when they cannot be receipts at all (a QA pass:
    a malformed `known` claim got a note, a malformed receipt none). A receipt is hex: ours
    have RECEIPT_HEX digits, the reference's 64; any other string matches no unit."""
    bad = {
        receipt
        for receipt in seen or []
        if len(receipt) not in (RECEIPT_HEX, 64) or any(c not in _HEX for c in receipt)
    }
    if not bad:
        return None
    receipts = "receipt" if len(bad) == 1 else "receipts"
    return f"{len(bad)} seen {receipts} not of the form <{RECEIPT_HEX} hex digits> ignored"


_HEX = frozenset("0123456789abcdef")


class UsageWindow:
    """60 one-minute buckets of (calls, response tokens, reads replaced): the 1-hour window."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buckets: deque[tuple[int, list[int]]] = deque()

    def record(self, response: int, replaced: int, now: float | None = None) -> None:
        minute = int((now if now is not None else time.time()) // 60)
        with self._lock:
            if not self._buckets or self._buckets[-1][0] != minute:
                self._buckets.append((minute, [0, 0, 0]))
            bucket = self._buckets[-1][1]
            bucket[0] += 1
            bucket[1] += response
            bucket[2] += replaced

    def totals(self, now: float | None = None) -> tuple[int, int, int]:
        minute = int((now if now is not None else time.time()) // 60)
        with self._lock:
            while self._buckets and self._buckets[0][0] <= minute - 60:
                self._buckets.popleft()
            sums = [0, 0, 0]
            for _, bucket in self._buckets:
                for i in range(3):
                    sums[i] += bucket[i]
        return sums[0], sums[1], sums[2]
