"""Hostile repositories and health: a repository that cannot be watched reports not ready
(with the reason), and a .gitignore built to make regexes backtrack never stops /health/live
from answering (issue 18, items 4 and 8)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import httpx
import pytest

from query_api.errors import ToolInputError
from repocontext.app import EmbeddedApp
from schemas.tools import AddRepoArgs, NoArgs
from tests.conftest import ServeProcess
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.integration.memory_rig import rig_settings, watched_rig

pytestmark = pytest.mark.anyio


async def test_a_repository_that_cannot_be_watched_is_reported_not_ready(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="streams.ingest")
    async with watched_rig(tmp_path) as (app, repo):
        assert (await app.service.health(NoArgs())).retrievalReady
        shutil.rmtree(repo)  # the watched root is gone: nothing can be watched any more

        async def not_ready() -> bool:
            return not (await app.service.health(NoArgs())).retrievalReady

        await wait_for(not_ready, 60, "health to report the unwatchable repository")
        health = await app.service.health(NoArgs())
        assert "not watching 'repo'" in health.status and "root" in health.status
        assert health.status.startswith("not ready: not watching 'repo'"), health.status
        # /health/ready names it too (its 503 listed no reason), and so does every answer
        reasons = app.service.not_ready_reasons()
        assert any(r.startswith("not watching 'repo'") for r in reasons), reasons
        fresh = await app.service.freshness("repo")
        assert fresh.sourceError and "root" in fresh.sourceError, fresh

        # the retries say so in one line each: the traceback came with the first failure
        async def repeated() -> bool:
            return any("watching repo still fails" in r.getMessage() for r in caplog.records)

        await wait_for(repeated, 30, "a retry of the same fault")
        traced = [r for r in caplog.records if r.exc_info and "watching repo" in r.getMessage()]
        assert 1 <= len(traced) <= 2, [r.getMessage() for r in traced]  # the fault, its cause


@pytest.mark.slow
async def test_live_answers_while_a_backtracking_gitignore_is_indexed(tmp_path: Path) -> None:
    """On 813317c pathspec's regex for 20 stars backtracked for hours holding the GIL: live
    probes timed out and SIGTERM was not honoured. Each probe here has a generous 10 s."""
    repo = tmp_path / "workspace" / "hostile"
    repo.mkdir(parents=True)
    (repo / ".gitignore").write_text("*" * 20 + "x\n" + "*a" * 20 + "x\n")
    for i in range(50):
        (repo / f"{'a' * 40}{i}.py").write_text(f"value_{i} = {i}\n")
    server = ServeProcess(repo, tmp_path / "data")
    try:
        async with http_session(server.base) as session, httpx.AsyncClient(timeout=10) as http:

            async def indexed_while_live() -> bool:
                assert (await http.get(server.base + "/health/live")).status_code == 200
                status = await call(session, "repocontext_index_status", {"repoId": "hostile"})
                return bool(status["status"] == "Completed")

            await wait_for(indexed_while_live, 60, "indexing with live answering")
            (repo / f"{'b' * 60}.py").write_text("late = 1\n")  # the watcher matches it too

            async def found_while_live() -> bool:
                assert (await http.get(server.base + "/health/live")).status_code == 200
                hits = await call(
                    session, "repocontext_search", {"repoId": "hostile", "query": "late"}
                )
                return any(h["entry"]["path"].startswith("bbbb") for h in hits["hits"])

            await wait_for(found_while_live, 60, "the watcher to publish the new file")
    finally:
        server.stop()
    assert server.proc.returncode == 0  # SIGTERM honoured


async def test_an_over_long_caller_glob_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    settings = rig_settings(tmp_path)
    assert settings.workspace_root is not None
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        args = AddRepoArgs(path="repo", excludeGlobs=["*.md", "*" * 2000 + "x"])
        with pytest.raises(ToolInputError, match=r"`excludeGlobs\[1\]`.*at most 1024"):
            await app.service.add_repo(args)
        assert not app.ingest.is_registered("repo")
