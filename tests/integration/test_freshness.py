"""Freshness on every answer (issue #8): the log lag, files changed on disk but not yet
logged (workspace sources), and the indexed commit against the ref's current commit (git
sources, through a real git poller on a local bare repository), over the real MCP client."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from schemas.events import WalkFilters
from schemas.symbols import OutlineArgs, RelatedArgs
from streams.sources.git_poller import GitPoller, GitSource
from streams.sources.watcher import WorkspaceWatcher
from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig, watched_rig
from tests.streams.test_git_poller import git

pytestmark = pytest.mark.anyio


async def test_every_answer_of_a_workspace_repo_says_how_fresh_it_is(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        base = {"repoId": "repo"}
        about_code = [  # a caught-up answer about code says so by eventsBehind alone
            await call(s, "repocontext_outline", {**base, "path": "src/billing/invoice.py"}),
            await call(s, "repocontext_related", {**base, "path": "src/billing/invoice.py"}),
            await call(s, "repocontext_context", {**base, "task": "compute the invoice total"}),
        ]
        with_offsets = [
            await call(s, "repocontext_search", {**base, "query": "invoice"}),
            await call(s, "repocontext_health", {}),
        ]
        for answer in [*about_code, *with_offsets]:
            fresh = answer["freshness"]
            assert fresh["eventsBehind"] == 0, fresh
            if answer in about_code:
                assert "logEndOffsets" not in fresh and "secondsBehind" not in fresh, fresh
            else:
                assert fresh["logEndOffsets"] > 0, fresh
            # watch=False in the rig: no watcher, so "changed on disk" is honestly unknown
            assert fresh.get("pendingFiles") is None
            assert fresh.get("indexedCommit") is None and fresh.get("sourceCommit") is None


async def test_the_symbol_service_says_how_fresh_its_answers_are(tmp_path: Path) -> None:
    """Outline and related carry freshness from the service that answered, not from the MCP
    transport: any caller of the service gets the whole answer."""
    async with memory_rig(tmp_path, index=True) as (app, _):
        symbols = app.services.symbols
        args = RelatedArgs(repoId="repo", path="src/billing/invoice.py")
        outlined = await symbols.outline(OutlineArgs(repoId="repo", path="src/billing/invoice.py"))
        for result in (outlined, await symbols.related(args)):
            assert result.freshness is not None, result
            assert result.freshness.eventsBehind == 0
            # caught up: the offsets are left out, as a bundle leaves them (answers/freshness.py)
            assert result.freshness.logEndOffsets is None, result.freshness


async def test_pending_files_counts_what_the_watcher_saw_until_it_is_logged(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    watcher = WorkspaceWatcher(root, WalkFilters(), debounce_ms=20, idle_timeout_ms=200)
    batches = watcher.__aiter__()
    first = await asyncio.wait_for(anext(batches), 20)  # the initial reconcile
    assert [s.path for s in first.upserts] == ["a.py"] and watcher.pending is None
    waiting = asyncio.ensure_future(anext(batches))
    await wait_for(lambda: _ready(watcher.synced and watcher.pending == 0), 20, "sync")
    for name in ("a.py", "b.py", "c.py"):
        (root / name).write_text(f"{name} = 2\n")
    batch = await asyncio.wait_for(waiting, 20)
    # held by the consumer (not yet published): every path of the change set is pending
    assert 1 <= (watcher.pending or 0) <= 3 and batch.upserts
    pending = watcher.pending
    assert pending == len({s.path for s in batch.upserts})
    follow = asyncio.ensure_future(anext(batches))  # the consumer asks for more: published
    await wait_for(lambda: _ready(watcher.pending == 0), 20, "pending to drain")
    watcher.stop()
    follow.cancel()
    with pytest.raises((asyncio.CancelledError, StopAsyncIteration)):
        await follow


async def _ready(value: bool) -> bool:
    return value


async def test_a_watched_repository_reports_zero_pending_once_synced(tmp_path: Path) -> None:
    async with watched_rig(tmp_path) as (app, _):
        health = await app.service.freshness()  # the only repository: its fields too
        assert health.pendingFiles == 0


async def test_git_freshness_compares_the_indexed_commit_with_the_ref(tmp_path: Path) -> None:
    bare, work = tmp_path / "remote.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    (work / "keep.py").write_text("def kept():\n    return 1\n")
    (work / "gone.py").write_text("def gone():\n    return 2\n")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "one")
    git(work, "push", "-q", str(bare), "main")
    first_head = git(work, "rev-parse", "HEAD")

    async with memory_rig(tmp_path, repos=()) as (app, s):  # only the git source
        poller = GitPoller(app.log, GitSource("demo", f"file://{bare}", "main"), tmp_path / "st")
        await poller.register()
        assert (await poller.poll_once()).status == "published"
        app.runtime.notify()
        assert await app.runtime.wait_idle(60)

        async def fresh() -> dict[str, object]:
            answer = await call(s, "repocontext_search", {"repoId": "demo", "query": "kept"})
            result: dict[str, object] = answer["freshness"]
            return result

        got = await wait_for(
            lambda: _when(fresh(), lambda f: f["indexedCommit"] == first_head), 20, "index"
        )
        assert got["sourceCommit"] == first_head and got["sourceCheckedAt"]
        assert got.get("pendingFiles") is None and got.get("sourceError") is None

        # a commit that only deletes a file: no record carries its revision, the poll does
        (work / "gone.py").unlink()
        git(work, "add", "-A")
        git(work, "commit", "-qm", "two")
        git(work, "push", "-q", str(bare), "main")
        second_head = git(work, "rev-parse", "HEAD")
        assert (await poller.poll_once()).deleted == ["gone.py"]
        app.runtime.notify()
        assert await app.runtime.wait_idle(60)
        got = await wait_for(
            lambda: _when(fresh(), lambda f: f["sourceCommit"] == second_head), 20, "poll"
        )
        assert got["indexedCommit"] == second_head and got["eventsBehind"] == 0
        repos = await call(s, "repocontext_list_repos", {})
        assert [r["indexedCommit"] for r in repos["repositories"]] == [second_head]

        # a failing fetch: the last generation keeps serving and the error is visible,
        # without the credentials of the URL
        secret = f"https://alice:s3cr3t@127.0.0.1:9/{bare.name}"
        bad = GitPoller(app.log, GitSource("demo", secret, "main"), tmp_path / "st")
        assert (await bad.poll_once()).status == "fetch_failed"
        app.runtime.notify()
        assert await app.runtime.wait_idle(60)
        got = await wait_for(lambda: _when(fresh(), lambda f: f["sourceError"]), 20, "error")
        assert "s3cr3t" not in str(got) and "alice" not in str(got)
        assert got["sourceCommit"] == second_head  # the last fetched commit
        assert got["indexedCommit"] == second_head  # what the log acknowledged stays served
        health = await call(s, "repocontext_health", {})
        assert health["freshness"]["sourceCommit"] == second_head


async def _when(
    value: Awaitable[dict[str, object]], predicate: Callable[[dict[str, object]], object]
) -> dict[str, object] | None:
    got = await value
    return got if predicate(got) else None
