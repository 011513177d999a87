"""A view store another connection holds the write lock of (a `sqlite3` shell, a backup
tool): the sink retries the batch once the lock is gone and dead-letters nothing.

It dead-lettered the record it was applying when the lock outlasted the busy timeout, and
when the lock went away before the offsets-only write that skips a dead letter, that record
never reached the views (a file the watcher saw, unsearchable until its next change)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import RepoRegistration
from streams.errors import StoreError, store_busy
from streams.eventlog.base import LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.test_runtime import dead_letters, open_log, upsert

pytestmark = pytest.mark.anyio

# The views' busy timeout is 5 s: the batch fails at ~5 s and, before the fix, its first
# record alone at ~10 s; the lock goes at 12 s, while the offsets-only write waits.
RELEASE_AFTER_S = 12.0


@pytest.mark.slow  # waits out the views' 5 s busy timeout once
async def test_a_locked_view_store_is_retried_never_dead_lettered(tmp_path: Path) -> None:
    log = await open_log("sqlite", tmp_path)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
        await log.append(topics.FILES.name, [upsert("a.py", "def count_quokkas(): pass")])
        runtime = EmbeddedRuntime(log, views)
        sink = next(step for step in runtime.steps if step.kind == "sink")
        for step in runtime.steps:
            if step is not sink:
                await runtime.run_step(step)

        holder = sqlite3.connect(tmp_path / "views.db", isolation_level=None,
                                 check_same_thread=False)  # fmt: skip
        holder.execute("BEGIN IMMEDIATE")
        release = threading.Timer(RELEASE_AFTER_S, holder.rollback)
        release.start()
        try:
            with pytest.raises(StoreError) as raised:
                await runtime.run_step(sink)
            assert store_busy(raised.value), raised.value
        finally:
            release.cancel()
            holder.rollback()
            holder.close()

        assert await dead_letters(log) == []
        await runtime.run_until_idle()
        assert await dead_letters(log) == []
        hits = keyword_hits(views, "r", "quokkas", 5)
        assert [hit.path for hit in hits] == ["a.py"] and hits[0].file is not None
    finally:
        views.close()
        await log.close()


def test_only_a_lock_counts_as_busy() -> None:
    assert store_busy(StoreError("x").with_traceback(None)) is False
    locked = sqlite3.OperationalError("database is locked")
    wrapped = StoreError("view store write failed: database is locked")
    wrapped.__cause__ = locked
    assert store_busy(wrapped)
    assert not store_busy(sqlite3.OperationalError("no such table: files"))
    assert not store_busy(sqlite3.IntegrityError("UNIQUE constraint failed"))
