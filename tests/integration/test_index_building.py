"""Answers over a repository still being indexed say so (QA on fastify: the first search after
`repocontext mcp .` in a fresh data directory returned 0 hits with no note and eventsBehind 0,
since the views kept up with each batch while the walk was still publishing the next).

The walk is held half way by the app's own progress callback (a real pause of the real walk,
no mock): every batch published so far is in the views, the log lag is 0, and the ingest job
is still running. Real app, log, views and MCP client."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from tests.conftest import write_sample_repo
from tests.integration.mcp_helpers import call, wait_for

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
FILES = 200
HOLD_AT = 128  # the walk reports progress every 64 files; it pauses at this report


class HeldWalk:
    """A progress callback that holds the walk at HOLD_AT files until released."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, done: int, total: int | None) -> None:
        if done == HOLD_AT:
            self.release.wait(timeout=120)


async def test_a_search_while_the_index_is_built_says_so(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "fastify"
    repo.mkdir(parents=True)
    for i in range(FILES):
        (repo / f"route_{i:03}.js").write_text(f"function route{i}(reply) {{ return {i} }}\n")
    settings = Settings(
        data_dir=tmp_path / "data",
        workspace_root=tmp_path / "ws",
        embedder="none",
        processor_workers=1,
        batch_size=16,
    )
    held = HeldWalk()
    async with EmbeddedApp(settings, watch=False, on_progress=held) as app:
        try:
            await _answers_while_building(app, repo, held)
        finally:
            held.release.set()  # never leave the walk's thread waiting at close


async def _answers_while_building(app: EmbeddedApp, repo: Path, held: HeldWalk) -> None:
    await app.start(resume=False, vectors=False)
    await app.service.ensure_repo(str(repo), "fastify")
    async with create_connected_server_and_client_session(app.mcp_server()) as s:

        async def caught_up_half_way() -> bool:
            lag = await app.runtime.lag()
            return lag.behind == 0 and app.views.file_count("fastify") >= 112

        await wait_for(caught_up_half_way, 60, "the published batches in the views")
        assert app.keyword_indexing("fastify")

        nothing = {"repoId": "fastify", "query": "no_such_identifier_anywhere"}
        answer = await s.call_tool("repocontext_search", nothing)
        result = answer.structuredContent
        assert result is not None and result["hits"] == []
        assert result["freshness"]["eventsBehind"] == 0
        building = result["freshness"]["indexing"]
        assert building == [
            {
                "repoId": "fastify",
                "phase": "Walking",
                "filesIndexed": app.views.file_count("fastify"),
                "filesFound": FILES,
            }
        ]
        note = result["note"]
        assert note.startswith("the index of fastify is still being built: ")
        assert f"of {FILES} files so far" in note
        text = " ".join(getattr(block, "text", "") for block in answer.content)
        assert text.count("is still being built") == 1  # the note is the freshness line

        found = await call(s, "repocontext_search", {"repoId": "fastify", "query": "route3"})
        assert "still being built" in found["note"]  # hits, but maybe not all of them
        # no match yet: both said (the build note used to replace the search's own)
        nothing = {"repoId": "fastify", "query": "zebraquokka"}
        missing = await call(s, "repocontext_search", nothing)
        assert "still being built" in missing["note"], missing
        # of the files indexed so far: 'no file contains it' claimed more than it knew
        so_far = "no file or memory entry in 'fastify' indexed so far contains 'zebraquokka'"
        assert so_far in missing["note"], missing
        blank = await call(s, "repocontext_search", {"repoId": "fastify", "query": "***"})
        assert blank["note"] == "the query '***' holds no word or number to search for", blank
        every = await call(s, "repocontext_search", {"query": "route3"})
        assert "still being built" in every["note"] and every["freshness"]["indexing"]
        bundle = await s.call_tool("repocontext_context", {"repoId": "fastify", "task": "route3"})
        assert bundle.structuredContent is not None
        assert bundle.structuredContent["freshness"]["indexing"][0]["filesFound"] == FILES
        bundle_text = " ".join(getattr(block, "text", "") for block in bundle.content)
        assert "the index of fastify is still being built" in bundle_text
        for task in ("route3", "zebraquokka"):  # the text says it once, with no match too
            packed = await s.call_tool("repocontext_context", {"repoId": "fastify", "task": task})
            packed_text = " ".join(getattr(block, "text", "") for block in packed.content)
            assert packed_text.count("is still being built") == 1, packed_text
        health = await call(s, "repocontext_health", {})
        assert "the index of fastify is still being built" in health["status"]

        held.release.set()
        await wait_for(lambda: _completed(app), 60, "the ingest job to complete")
        done = await call(s, "repocontext_search", {"repoId": "fastify", "query": "route3"})
        assert "note" not in done and "indexing" not in done["freshness"]


async def _completed(app: EmbeddedApp) -> bool:
    return not app.keyword_indexing("fastify")


async def test_a_repository_not_yet_in_the_views_is_listed(tmp_path: Path) -> None:
    """QA on ripgrep: a fresh stdio session listed no repository while health said its index
    was being built. Registered, with no step run yet to put it in the views, it is listed
    with its root and no file count."""
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    async with EmbeddedApp(settings, watch=False) as app:
        await app.service.ensure_repo(str(repo), "sample", launch=False)
        assert app.views.get_repo("sample") is None  # nothing applied: the runtime is not started
        listed = await app.service.list_repos(t.NoArgs())
        assert [(r.repoId, r.fileCount) for r in listed.repositories] == [("sample", None)]
        assert listed.count == 1 and listed.repositories[0].indexedRoot == str(repo.resolve())
