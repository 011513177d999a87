"""Wait for an added repository's ingest job, for tests that drive the pipeline themselves.

`add_repo` starts the job in the background: a test that ran the pipeline until idle right
after it could find nothing logged yet, and go on to search an empty index (a loaded machine
saw this). Here the pipeline runs until the job says Completed, then once more."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

from repocontext.app import EmbeddedApp
from schemas.tools import AddRepoArgs, RepoIdArgs
from tests.integration.memory_rig import rig_settings


async def ingested(app: EmbeddedApp, repo_id: str, timeout: float = 60.0) -> None:
    """Run `app`'s pipeline until `repo_id`'s ingest job has completed and been processed."""
    deadline = time.monotonic() + timeout
    while True:
        await app.runtime.run_until_idle()
        status = await app.service.index_status(RepoIdArgs(repoId=repo_id))
        assert status.status != "Failed", status
        if status.status == "Completed":
            await app.runtime.run_until_idle()
            return
        assert time.monotonic() < deadline, f"{repo_id} did not finish indexing"
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def indexed_app(
    tmp_path: Path, files: Mapping[str, str] | None = None, repo_id: str = "repo"
) -> AsyncIterator[EmbeddedApp]:
    """An embedded app (no watcher, the rig's settings) with `tmp_path/ws/<repo_id>` added and
    indexed, `files` (repo-relative path -> text) written there first; None: the test wrote
    the repository itself. Written before the settings: they put the sample repository at
    `ws/repo` when nothing is there."""
    repo = tmp_path / "ws" / repo_id
    for rel, body in (files or {}).items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(body)
    settings = rig_settings(tmp_path, workspace_root=tmp_path / "ws")
    async with EmbeddedApp(settings, watch=False) as app:
        await app.service.add_repo(AddRepoArgs(path=str(repo), repoId=repo_id))
        await ingested(app, repo_id)
        yield app
