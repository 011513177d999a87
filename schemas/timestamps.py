"""The one way a moment is written in an answer, a record or a job: ISO-8601 round-trip ("O")
UTC, seven fractional digits, `Z` (spec §1.3: `expiresAtUtc` is an "O" string). One width
everywhere, so `lastIngested`, `createdAt` and `expiresAtUtc` compare as strings and read alike;
`datetime.isoformat()` alone drops the fraction when the microseconds are 0."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


@overload
def iso_utc(ts: float) -> str: ...
@overload
def iso_utc(ts: None) -> None: ...
@overload
def iso_utc(ts: float | None) -> str | None: ...


def iso_utc(ts: float | None) -> str | None:
    """`ts` (seconds since the epoch) as `2026-12-02T22:17:21.1234560Z`; None stays None."""
    if ts is None:
        return None
    moment = datetime.fromtimestamp(ts, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond:06d}0Z"
