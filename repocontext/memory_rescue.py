"""Replay never destroys memory the views still hold.

`repocontext replay` drops the views and rebuilds them from the log. Memory exists nowhere
but the log and its projection, so when the log has lost entries (truncated, replaced,
corrupt) while views.db still holds them, a plain replay would delete the last copy. Before
dropping anything, every entry the views hold that the log lacks (or holds an older version
of) triggers an export of the views' memory to a file in the data directory, in the format
`repocontext memory import` reads.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from query_api.settings import Settings
from repocontext import memory_transfer as mt
from schemas.memory import MemoryEntry
from schemas.topics import CATALOGUE
from streams.eventlog.factory import open_event_log
from streams.stores.views.handlers import default_registry
from streams.stores.views.memory import MemoryViews
from streams.stores.views.store import ViewStore

log = logging.getLogger(__name__)


def _held_by_views(path: Path) -> list[MemoryEntry]:
    views = ViewStore(path, default_registry())
    try:
        return MemoryViews(views).every_entry()
    finally:
        views.close()


async def _in_log(settings: Settings) -> dict[str, MemoryEntry]:
    event_log = open_event_log(settings.resolved_log_url(), **settings.event_log_options())
    try:
        await event_log.create_topics(CATALOGUE)
        return {e.key: e for e in await mt.current_entries(event_log, None)}
    finally:
        await event_log.close()


async def rescue_memory(settings: Settings, now: float | None = None) -> dict[str, Any] | None:
    """Export the views' memory when the log lacks some of it; None when nothing is at risk.
    Raises TransferError when the views hold memory at risk that cannot be exported."""
    if not settings.views_path.exists():
        return None
    try:
        held = _held_by_views(settings.views_path)
    except Exception as exc:  # unreadable views hold nothing a replay could lose
        log.warning("replay: the views could not be read for memory (%s)", exc)
        return None
    if not held:
        return None
    try:
        in_log = await _in_log(settings)
    except Exception as exc:  # a log too damaged to read has lost everything it held
        log.warning("replay: the log's memory could not be read (%s)", exc)
        in_log = {}
    at_risk = [e for e in held if e.key not in in_log or in_log[e.key].updated_at < e.updated_at]
    if not at_risk:
        return None
    now = time.time() if now is None else now
    target = settings.data_dir / f"memory-rescue-{int(now)}.jsonl"
    written = mt.write_export(target, held, None, now)
    log.warning(
        "replay: the log lacks %d memory entries the views hold; exported the views' %d live "
        "entries to %s first; restore them with `repocontext memory import %s`",
        len(at_risk),
        written,
        target,
        target,
    )
    return {"file": str(target), "entries": written, "missingFromLog": len(at_risk)}
