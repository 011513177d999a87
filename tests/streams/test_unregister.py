"""Removing a repository tombstones what the log holds, not what the views have applied: a
git source's files published while the views trail the log must not outlive the repository
(issue 19 item 5: ingest reads the log, not its own projection)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import FileUpsert, RepoRegistration, file_key
from streams.eventlog.base import LogRecord
from streams.eventlog.fold import live_keys
from streams.eventlog.sqlite import SqliteEventLog
from streams.ingest import IngestCoordinator
from streams.runtime.embedded import EmbeddedRuntime
from streams.sources.manifest import Manifest
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore

pytestmark = pytest.mark.anyio


def upsert(repo_id: str, path: str) -> LogRecord:
    event = FileUpsert(
        repo_id=repo_id,
        path=path,
        digest=f"xx128:{len(path):x}",
        size=1,
        mtime_ns=1,
        body="x = 1\n",
        observed_at=1.0,
    )
    return LogRecord(key=file_key(repo_id, path), value=codec.encode(event))


async def test_files_the_views_have_not_applied_yet_are_tombstoned(tmp_path: Path) -> None:
    log = SqliteEventLog(tmp_path / "log.db")
    await log.create_topics(topics.CATALOGUE)
    views = ViewStore(tmp_path / "views.db", default_registry())
    manifest = Manifest(tmp_path / "manifest.db")
    runtime = EmbeddedRuntime(log, views)
    ingest = IngestCoordinator(
        log,
        manifest,
        data_dir=tmp_path,
        notify=runtime.notify,
        wait_idle=runtime.wait_idle,
        watch=False,
    )
    try:
        # what a git source (another process) published: nothing of it is in the views yet
        registration = RepoRegistration(repo_id="g", source="git", url="x", registered_at=1.0)
        await log.append(topics.REPOS.name, [LogRecord("g", codec.encode(registration))])
        await log.append(
            topics.FILES.name,
            [upsert("g", "a.py"), upsert("g", "b.py"), upsert("g", "c.py"), upsert("h", "a.py")],
        )
        await log.append(topics.FILES.name, [LogRecord(file_key("g", "c.py"), None)])
        assert await live_keys(log, topics.FILES.name, "g") == ["g/a.py", "g/b.py"]

        assert await ingest.unregister("g") == 3  # two live files and the registration

        await runtime.run_until_idle()
        assert views.get_repo("g") is None
        assert views.files_under("g", "", None, 10) == []
        assert [f.path for f in views.files_under("h", "", None, 10)] == ["a.py"]
        assert await live_keys(log, topics.FILES.name, "g") == []
    finally:
        manifest.close()
        views.close()
        await log.close()
