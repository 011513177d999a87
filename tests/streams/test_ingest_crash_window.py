"""A process killed between a batch's log append and its manifest record: a file the log
then holds but the manifest did not know was never tombstoned once deleted offline, so it
stayed in search (`exists: true`) for good (QA on logrus: kill -9 of `serve` 50 ms after new
files were written, one of them deleted before the restart)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from schemas import topics
from schemas.events import RepoRegistration, WalkFilters
from streams.eventlog.base import LogRecord
from streams.eventlog.sqlite import SqliteEventLog
from streams.ingest import IngestCoordinator
from streams.runtime.embedded import EmbeddedRuntime
from streams.sources.manifest import Manifest
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore

pytestmark = pytest.mark.anyio

REGISTRATION = RepoRegistration(
    repo_id="r", source="workspace", root="", filters=WalkFilters(), registered_at=1.0
)


class KilledAfterAppend(SqliteEventLog):
    """The real log; the process is SIGKILLed as soon as `files.v1` holds `path`'s upsert."""

    def __init__(self, path: Path, victim: str) -> None:
        super().__init__(path)
        self.victim = victim

    async def append(self, topic: str, records: Sequence[LogRecord]) -> list[tuple[int, int]]:
        placed = await super().append(topic, records)
        if topic == topics.FILES.name and any(r.key == self.victim for r in records):
            os.kill(os.getpid(), signal.SIGKILL)
        return placed


def _open(data_dir: Path, log: SqliteEventLog) -> tuple[ViewStore, Manifest, IngestCoordinator]:
    views = ViewStore(data_dir / "views.db", default_registry())
    manifest = Manifest(data_dir / "manifest.db")
    runtime = EmbeddedRuntime(log, views)

    async def idle(_timeout: float) -> bool:
        await runtime.run_until_idle()
        return True

    ingest = IngestCoordinator(
        log, manifest, data_dir=data_dir, notify=runtime.notify, wait_idle=idle, watch=False
    )
    return views, manifest, ingest


async def _index(data_dir: Path, root: Path, log: SqliteEventLog) -> list[str]:
    """One reconcile pass of `root`; the paths the views then hold."""
    await log.create_topics(topics.CATALOGUE)
    views, manifest, ingest = _open(data_dir, log)
    try:
        registration = REGISTRATION.model_copy(update={"root": str(root)})
        await ingest.reconcile(registration, force_full=False)
        return [f.path for f in views.files_under("r", "", None, 100)]
    finally:
        manifest.close()
        views.close()
        await log.close()


def crash_while_publishing(data_dir: str, root: str) -> None:
    """The child: indexes `root`, dying right after `new.py` reached the log."""
    log = KilledAfterAppend(Path(data_dir) / "log.db", "r/new.py")
    asyncio.run(_index(Path(data_dir), Path(root), log))


async def test_a_file_deleted_after_a_crash_between_log_and_manifest_is_tombstoned(
    tmp_path: Path,
) -> None:
    data_dir, root = tmp_path / "data", tmp_path / "repo"
    data_dir.mkdir()
    root.mkdir()
    (root / "old.py").write_text("def kept(): pass\n")
    log = SqliteEventLog(data_dir / "log.db")
    assert await _index(data_dir, root, log) == ["old.py"]

    (root / "new.py").write_text("def ghostly(): pass\n")
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tests.streams.test_ingest_crash_window import "
            "crash_while_publishing as c; c(sys.argv[1], sys.argv[2])",
            str(data_dir),
            str(root),
        ],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=60,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()

    (root / "new.py").unlink()  # deleted while nothing ran
    after = await _index(data_dir, root, SqliteEventLog(data_dir / "log.db"))
    assert after == ["old.py"]
