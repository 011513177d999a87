"""The ingest job's progress is ingest's own state, kept in the source manifest (a store that
is not derived from the log), not in the views: dropping the views (replay, a corrupt file)
keeps it, and removing the repository forgets it (issue 19 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from repocontext.app import EmbeddedApp
from schemas.tools import RepoIdArgs
from streams.errors import SourceError
from streams.sources.manifest import Manifest
from tests.integration.memory_rig import memory_rig, rig_settings


def test_a_job_snapshot_round_trips_and_goes_with_its_repository(tmp_path: Path) -> None:
    with Manifest(tmp_path / "m.db") as manifest:
        assert manifest.get_job("r") is None
        manifest.put_job("r", {"status": "Running", "filesScanned": 3, "pacing": None})
        manifest.put_job("s", {"status": "Completed"})
        assert manifest.get_job("r") == {"status": "Running", "filesScanned": 3, "pacing": None}
        with pytest.raises(SourceError, match="job snapshot of 'r' is not JSON"):
            manifest.put_job("r", {"bad": object()})
        assert manifest.get_job("r") == {"status": "Running", "filesScanned": 3, "pacing": None}
        manifest.drop_repo("r")
        assert manifest.get_job("r") is None and manifest.get_job("s") == {"status": "Completed"}


@pytest.mark.anyio
async def test_the_last_job_survives_dropping_the_views(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True):
        pass  # the sample repository indexed: its job Completed
    for name in ("views.db", "views.db-wal", "views.db-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)  # what replay drops

    async with EmbeddedApp(rig_settings(tmp_path), watch=False) as app:
        status = await app.service.index_status(RepoIdArgs(repoId="repo"))
        assert status.status == "Completed" and status.filesScanned
