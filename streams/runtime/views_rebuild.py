"""How far the view sink has got rebuilding views that a schema change emptied.

A ViewStore that found a views file of another schema version starts a new one
(`ViewStore.rebuilt_from`), and the view sink re-applies the whole log into it, which takes
minutes on a large repository. Searches meanwhile answer from what is applied so far and say
that the index is behind; this says in the log what is happening and how long it will take:
one line when the rebuild starts, one every `every_s` while it goes on (records applied of the
log's, rate, time left) and one when it is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from streams.stores.views.schema import SCHEMA_VERSION
from streams.stores.views.store import ViewStore

log = logging.getLogger(__name__)

REBUILD_LOG_S = 30.0  # between progress lines


def _eta(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


Position = Callable[[], Awaitable[tuple[int, int]]]  # (applied, the log's end), sink inputs


async def report_views_rebuild(
    views: ViewStore,
    position: Position,
    stop: asyncio.Event,
    every_s: float = REBUILD_LOG_S,
) -> None:
    """Log the rebuild of `views` (when it was rebuilt) until the sink has applied the log as
    it stood when first asked, or `stop`. `position` sums the sink's offsets and the log's
    ends over the partitions the sink reads; records appended later are its usual work. A log
    that does not answer only delays the next line (the sink is waiting for it too)."""
    if views.rebuilt_from is None:
        return
    started = time.monotonic()
    first: tuple[int, int] | None = None  # (applied, end) when the log first answered
    applied = 0
    last_look = False  # once stopping: one more look, so a short rebuild says it is done
    while not last_look:
        last_look = stop.is_set()
        try:
            applied, end = await position()
        except Exception as exc:
            log.debug("views rebuild: the sink's position is unknown (%s)", exc)
        else:
            if first is None:
                first = (applied, end)
                log.info(
                    "views: rebuilding from the log for schema version %d (the file had %d): "
                    "%d of %d records",
                    SCHEMA_VERSION,
                    views.rebuilt_from,
                    applied,
                    end,
                )
            if applied >= first[1]:
                log.info(
                    "views: rebuilt from the log: %d records in %.1f s",
                    applied,
                    time.monotonic() - started,
                )
                return
            if applied > first[0] and not last_look:
                rate = (applied - first[0]) / max(time.monotonic() - started, 1e-3)
                log.info(
                    "views: rebuilding from the log: %d of %d records (%.0f/s, eta %s)",
                    applied,
                    first[1],
                    rate,
                    _eta((first[1] - applied) / rate),
                )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
