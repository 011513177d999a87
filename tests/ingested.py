"""Wait for an added repository's ingest job, for tests that drive the pipeline themselves.

`add_repo` starts the job in the background: a test that ran the pipeline until idle right
after it could find nothing logged yet, and go on to search an empty index (a loaded machine
saw this). Here the pipeline runs until the job says Completed, then once more."""

from __future__ import annotations

import asyncio
import time

from repocontext.app import EmbeddedApp
from schemas.tools import RepoIdArgs


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
