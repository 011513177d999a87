"""Choose an EventLog backend by URL (DESIGN §5): the one place that knows the schemes.

`sqlite:///` URLs follow SQLAlchemy: what follows the third slash is the path, so
`sqlite:///log.db` is relative to the working directory and `sqlite:////abs/log.db` (that is,
`f"sqlite:///{absolute_path}"`) is absolute. `~` is expanded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streams.errors import EventLogError
from streams.eventlog.base import EventLog

SUPPORTED_SCHEMES = ("memory://", "sqlite:///", "kafka://")


def sqlite_path(url: str) -> Path:
    """The file a `sqlite:///...` URL names."""
    raw = url.removeprefix("sqlite:///")
    if raw == url or not raw or raw == ":memory:":
        raise EventLogError(f"expected sqlite:///<path to a file>, got {url!r}")
    return Path(raw).expanduser()


def open_event_log(url: str, **opts: Any) -> EventLog:
    """Open the backend the URL names; `opts` go to its constructor (e.g.
    tombstone_retention_ms, compact_threshold, background_compaction, synchronous, clock;
    kafka: topic_configs, request_timeout_s)."""
    if url.startswith("memory://"):
        from streams.eventlog.memory import MemoryEventLog

        return MemoryEventLog(**opts)
    if url.startswith("sqlite:"):
        from streams.eventlog.sqlite import SqliteEventLog

        return SqliteEventLog(sqlite_path(url), url=url, **opts)
    if url.startswith("kafka://"):
        from streams.eventlog.kafka import KafkaEventLog

        return KafkaEventLog(url, **opts)
    raise EventLogError(
        f"unsupported event log URL {url!r}; supported schemes: {', '.join(SUPPORTED_SCHEMES)}"
    )
