"""Start fast (issue 21 item 5), the keyword side: a host's processor worker starts (and
imports the processors) while the host is still starting, not when the first batch is
submitted, and an ingest waiting for the views to catch up polls with a backoff instead of
every 10 ms (each poll took the main thread from the steps it waited for). Real app, log,
views and processor pool; figures: tests/bench/mcp_start_latency.py."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import topics
from streams.eventlog.base import LogRecord
from streams.runtime.embedded import Lag

pytestmark = pytest.mark.anyio


def settings_for(tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        workspace_root=tmp_path / "ws",
        embedder="none",
        processor_workers=1,
    )


async def test_a_host_starts_its_processor_worker_before_the_first_batch(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "ws" / "repo"
    for i in range(5):
        (repo / f"mod{i}.py").parent.mkdir(parents=True, exist_ok=True)
        (repo / f"mod{i}.py").write_text(f"def handler_{i}(request):\n    return {i}\n")
    async with EmbeddedApp(settings_for(tmp_path)) as app:  # watch=True: a host
        pool = app.executor
        assert pool is not None and not pool.alive
        await app.start(vectors=False)
        assert pool.alive and pool.starts == 1  # no repository yet: warming
        await app.service.ensure_repo(str(repo), "repo")
        deadline = time.monotonic() + 60
        while app.keyword_indexing("repo") and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert app.views.file_count("repo") == 5
        assert pool.starts == 1  # the warmed workers processed the batches


async def test_one_shot_commands_start_no_worker_ahead(tmp_path: Path) -> None:
    async with EmbeddedApp(settings_for(tmp_path), watch=False) as app:
        await app.start(resume=False)
        assert app.executor is not None and not app.executor.alive


async def test_waiting_for_idle_views_backs_off(tmp_path: Path) -> None:
    """A backlog the steps never drain (the runtime is not started): a wait of 1 s asks for
    the lag a handful of times, not every 10 ms."""
    async with EmbeddedApp(settings_for(tmp_path), watch=False) as app:
        await app.log.append(topics.REPOS.name, [LogRecord(key="r", value=b"{}")])
        runtime = app.runtime
        asked = 0
        measure = runtime.lag

        async def counted() -> Lag:  # the real measurement, counted
            nonlocal asked
            asked += 1
            return await measure()

        runtime.lag = counted  # type: ignore[method-assign]
        assert not await runtime.wait_idle(1.0)
        assert 2 <= asked <= 12  # 10 ms doubling to 200 ms: about 9 in a second (was ~100)


async def test_a_host_compacts_the_views_it_built_once_its_first_index_completes(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    for i in range(40):
        (repo / f"mod{i}.py").write_text(f"def handler_{i}(request):\n    return {i}\n" * i)
    async with EmbeddedApp(settings_for(tmp_path)) as app:  # watch=True: a host
        await app.start(vectors=False)
        await asyncio.sleep(0.5)  # settled with no repository: nothing to compact yet
        assert app.views.built_from_empty
        await app.service.ensure_repo(str(repo), "repo")
        deadline = time.monotonic() + 60
        while app.views.built_from_empty and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not app.views.built_from_empty  # compacted (ViewStore.compact_first_build)
        assert app.views.file_count("repo") == 40
    async with EmbeddedApp(settings_for(tmp_path)) as again:  # the file was not new
        assert not again.views.built_from_empty
