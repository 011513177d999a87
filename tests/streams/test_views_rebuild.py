"""Views written under another schema version are rebuilt from the log, saying how far it got.

A data directory from an older build (its views.db stamped with another SCHEMA_VERSION) must
come back on its own: the store starts a new file, the running pipeline's view sink re-applies
the log into it, the result equals what a fresh build makes, and the log says so with
progress lines while it happens.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import RepoRegistration
from streams.eventlog.base import LogRecord
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.handlers import default_registry
from streams.stores.views.schema import SCHEMA_VERSION
from streams.stores.views.search import keyword_hits
from streams.stores.views.store import ViewStore
from tests.streams.test_runtime import open_log, upsert

pytestmark = pytest.mark.anyio


def state(views: ViewStore) -> tuple[list[tuple[str, str]], list[tuple[str, float]]]:
    files = [(f.path, f.digest) for f in views.files_under("r", "", None, 1000)]
    hits = [(h.path, round(h.score, 9)) for h in keyword_hits(views, "r", "f7 changed", 10)]
    return files, hits


def stamp(path: Path, version: int) -> None:
    conn = sqlite3.connect(path)  # as an older build left it
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


async def test_views_of_another_schema_version_are_rebuilt_from_the_log_with_progress(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log = await open_log("sqlite", tmp_path)
    registration = RepoRegistration(repo_id="r", root="/x", registered_at=1.0)
    await log.append(topics.REPOS.name, [LogRecord("r", codec.encode(registration))])
    await log.append(
        topics.FILES.name, [upsert(f"m{n}.py", f"def f{n}(): pass") for n in range(40)]
    )
    await log.append(topics.FILES.name, [upsert("m3.py", "def changed(): pass")])
    path = tmp_path / "views.db"
    views = ViewStore(path, default_registry())
    await EmbeddedRuntime(log, views).run_until_idle()
    built = state(views)
    assert views.rebuilt_from is None and len(built[0]) == 40
    views.close()

    stamp(path, SCHEMA_VERSION - 1)
    caplog.set_level(logging.INFO)
    views = ViewStore(path, default_registry())
    stop = asyncio.Event()
    try:
        assert views.rebuilt_from == SCHEMA_VERSION - 1
        assert views.file_count("r") == 0 and views.offsets() == {}  # a new, empty file
        runtime = EmbeddedRuntime(log, views, batch_size=4)
        runtime.rebuild_log_s = 0.001
        running = asyncio.create_task(runtime.run_forever(stop))
        deadline = time.monotonic() + 60
        while not any("rebuilt from the log" in r.getMessage() for r in caplog.records):
            assert not running.done(), running
            assert time.monotonic() < deadline, caplog.text[-2000:]
            await asyncio.sleep(0.01)
        assert state(views) == built
        lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("views:")]
        assert f"schema version {SCHEMA_VERSION} (the file had {SCHEMA_VERSION - 1})" in lines[0]
        assert lines[0].endswith(" records") and " of " in lines[0]
        assert "rebuilt from the log" in lines[-1]
        assert any("starting a new views file" in r.getMessage() for r in caplog.records)
    finally:
        stop.set()
        await running
        views.close()
        await log.close()
    reopened = ViewStore(path, default_registry())  # this build's version now: kept as it is
    try:
        assert reopened.rebuilt_from is None and state(reopened) == built
    finally:
        reopened.close()
