"""A replica's views that outlived the log are detected (streams/runtime/view_staleness.py):
a position past a partition's end (a recreated topic), below a compacted topic's log start,
or out of step with the log for longer than the tombstone retention while the log moved on.
Real SQLite log and views."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from schemas import topics
from streams.eventlog.base import LogRecord
from streams.eventlog.factory import open_event_log
from streams.runtime.view_staleness import record_synced, synced_at, views_outlived_log
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.topology import VIEW_SINK_GROUP, VIEW_TOPICS

pytestmark = pytest.mark.anyio
DAY_S = 86_400.0
TOPIC = topics.STRUCTURE.name


async def test_a_position_below_the_log_start_is_detected(tmp_path: Path) -> None:
    log = open_event_log(f"sqlite:///{tmp_path / 'log.db'}")
    await log.create_topics(topics.CATALOGUE)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        partition = topics.partition_for("r/a.py", await log.partitions(TOPIC))
        # a.py and b.py twice: compaction removes the first two, so the log starts at 2
        for _ in range(2):
            await log.append(TOPIC, [LogRecord("r/a.py", b"{}"), LogRecord("r/b.py", b"{}")])
        views.apply([], {(TOPIC, partition): 1}, VIEW_SINK_GROUP)  # read offset 0 only
        args = (VIEW_SINK_GROUP, VIEW_TOPICS, DAY_S, time.time())
        assert await views_outlived_log(log, views, *args) is None  # nothing removed yet
        await log.compact(TOPIC)
        assert (await log.start_offsets(TOPIC))[partition] == 2
        reason = await views_outlived_log(log, views, *args)
        assert reason is not None and f"{TOPIC}[{partition}]" in reason
        assert "removed unread" in reason
        views.apply([], {(TOPIC, partition): 2}, VIEW_SINK_GROUP)  # at the start: fine
        assert await views_outlived_log(log, views, *args) is None
    finally:
        views.close()
        await log.close()


async def test_out_of_step_longer_than_the_tombstone_retention_is_detected(
    tmp_path: Path,
) -> None:
    log = open_event_log(f"sqlite:///{tmp_path / 'log.db'}")
    await log.create_topics(topics.CATALOGUE)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        partition = topics.partition_for("r/a.py", await log.partitions(TOPIC))
        await log.append(TOPIC, [LogRecord("r/a.py", b"{}")])
        views.apply([], {(TOPIC, partition): 1}, VIEW_SINK_GROUP)
        now = time.time()
        record_synced(views, now - 2 * DAY_S)
        record_synced(views, now - 3 * DAY_S)  # the mark only moves forward
        assert synced_at(views) == pytest.approx(now - 2 * DAY_S, abs=0.01)
        args = (VIEW_SINK_GROUP, VIEW_TOPICS, DAY_S, now)
        # caught up: nothing the views missed, however long ago they were last checked
        assert await views_outlived_log(log, views, *args) is None
        await log.append(TOPIC, [LogRecord("r/a.py", None)])  # a deletion since
        reason = await views_outlived_log(log, views, *args)
        assert reason is not None and "tombstones" in reason
        record_synced(views, now - 60)  # in step a minute ago: the tombstone is still there
        assert await views_outlived_log(log, views, *args) is None
    finally:
        views.close()
        await log.close()


async def test_a_position_past_the_log_end_is_detected(tmp_path: Path) -> None:
    """Views kept on a volume over a log that was made again (fewer records, same topics): the
    old offsets name other records, so the views are rebuilt rather than skip them."""
    log = open_event_log(f"sqlite:///{tmp_path / 'log.db'}")
    await log.create_topics(topics.CATALOGUE)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        partition = topics.partition_for("r/a.py", await log.partitions(TOPIC))
        await log.append(TOPIC, [LogRecord("r/a.py", b"{}"), LogRecord("r/a.py", b"{}")])
        args = (VIEW_SINK_GROUP, VIEW_TOPICS, DAY_S, time.time())
        views.apply([], {(TOPIC, partition): 2}, VIEW_SINK_GROUP)  # at the end: fine
        assert await views_outlived_log(log, views, *args) is None
        views.apply([], {(TOPIC, partition): 5}, VIEW_SINK_GROUP)  # read records now gone
        reason = await views_outlived_log(log, views, *args)
        assert reason is not None and f"{TOPIC}[{partition}]" in reason
        assert "offset 5" in reason and "ends at 2" in reason and "recreated" in reason
    finally:
        views.close()
        await log.close()
