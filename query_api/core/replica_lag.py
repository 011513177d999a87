"""Freshness and readiness of a replica over a remote (Kafka) log, from the runtime's
background lag measurement: nothing here waits on the broker.

While the broker is away the views keep answering; freshness carries the last measured lag,
when it was measured, and since when (and why) the log is unreachable. A replica is ready when
its last measured lag is within the configured bound: one that was caught up when the broker
left stays in the Service, one that never measured its lag (started during an outage, or
still starting) does not.
"""

from __future__ import annotations

from schemas import tools as t
from schemas.timestamps import iso_utc
from streams.runtime.embedded import EmbeddedRuntime


async def remote_freshness(runtime: EmbeddedRuntime) -> t.Freshness:
    """The last background measurement; one bounded attempt when no watch runs (one-shot
    commands); all zeros with a null `lagMeasuredAt` while nothing was measured yet."""
    lag = runtime.current_lag()
    if lag is None and not runtime.lag_watch.running:
        await runtime.lag_watch.refresh()
        lag = runtime.current_lag()
    contact = runtime.contact
    reach: dict[str, object] = {
        "logReachable": contact.reachable,
        "logUnreachableSince": iso_utc(contact.unreachable_since),
        "logError": contact.error if not contact.reachable else None,
    }
    if lag is None:
        return t.Freshness(appliedOffsets=0, logEndOffsets=0, eventsBehind=0, **reach)
    return t.Freshness(
        appliedOffsets=lag.applied,
        logEndOffsets=lag.end,
        eventsBehind=lag.behind,
        secondsBehind=lag.seconds_behind,
        lagMeasuredAt=iso_utc(lag.measured_at),
        **reach,
    )


def lag_not_ready(runtime: EmbeddedRuntime, max_lag_events: int | None) -> str | None:
    """Why the replica is not caught up enough to take traffic (None: it is, or no bound)."""
    if max_lag_events is None or not runtime.log.remote:
        return None
    lag = runtime.current_lag()
    if lag is None:
        contact = runtime.contact
        if not contact.reachable:
            return (
                f"the event log has been unreachable since {iso_utc(contact.unreachable_since)}"
                f" ({contact.error}) and the views' lag was never measured"
            )
        return "the views' lag behind the event log is not measured yet"
    if lag.behind > max_lag_events:
        return (
            f"the views trail the event log by {lag.behind} events "
            f"(ready within {max_lag_events}: REPOCONTEXT_READY_MAX_LAG_EVENTS)"
        )
    return None


def unreachable_line(runtime: EmbeddedRuntime) -> str | None:
    """The health status's note while a remote log does not answer."""
    contact = runtime.contact
    if not runtime.log.remote or contact.reachable:
        return None
    return (
        f"event log unreachable since {iso_utc(contact.unreachable_since)} ({contact.error}); "
        "answering from the views as of the last contact"
    )
