"""Search reader processes (query_api/server/search_readers.py): real reader processes on the
real views of an indexed app, driven by the real MCP client over HTTP (uvicorn on a socket).
They answer what the owner answers, see the owner's writes, and one that dies is replaced
without the caller seeing it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from query_api.errors import UsageError
from query_api.server.http_app import build_http_app
from query_api.server.search_readers import SearchReaders, start_search_readers
from repocontext.app import EmbeddedApp
from schemas.tools import SearchArgs
from tests.conftest import child_env, cli_command, write_sample_repo
from tests.integration.mcp_helpers import call, http_session, stdio_session, wait_indexed
from tests.integration.memory_rig import memory_rig
from tests.integration.test_http_answer_body import listening, postings_built

pytestmark = pytest.mark.anyio

QUERIES = [
    "compute the invoice total",
    "post an entry to the ledger",
    "start the http server on a port",
    "reconcile the quarterly ledger",
    "zanzibarword",
    "no word of this is anywhere qqqq",
]


@contextlib.asynccontextmanager
async def served(app: EmbeddedApp) -> AsyncIterator[ClientSession]:
    asgi = build_http_app(app.mcp_server(), app.service, "127.0.0.1")
    async with listening(asgi) as base, http_session(base) as session:
        yield session


@contextlib.asynccontextmanager
async def readers_of(app: EmbeddedApp, count: int = 2) -> AsyncIterator[SearchReaders]:
    readers = SearchReaders(app.views, count, app.service.rank_here)
    readers.start()
    try:
        assert await readers.wait_ready(120), "the search readers did not start within 120 s"
        app.service.ranking = readers
        yield readers
    finally:
        app.service.ranking = None
        await readers.close()


async def answers(session: ClientSession, queries: list[str]) -> list[tuple[Any, str]]:
    """Each query's structured content (but when the views were read) and its text."""
    out = []
    for query in queries:
        result = await session.call_tool(
            "repocontext_search", {"repoId": "repo", "query": query, "k": 10}
        )
        assert not result.isError, result.content
        content = dict(result.structuredContent or {})
        content.pop("freshness", None)
        text = "\n".join(getattr(block, "text", "") for block in result.content)
        out.append((content, text.split("\nfreshness", 1)[0]))
    return out


async def test_readers_answer_what_the_owner_answers(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, _):
        await postings_built(app)
        async with served(app) as session:
            here = await answers(session, QUERIES)
            async with readers_of(app) as readers:
                there = await answers(session, QUERIES * 2)
                assert readers.answered == 2 * len(QUERIES)
    assert [a for a, _ in there] == [a for a, _ in here] * 2
    assert there == here * 2
    assert any(a["hits"] for a, _ in here) and not here[-1][0]["hits"]


async def test_a_search_after_a_write_sees_it(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, _):
        await postings_built(app)
        async with served(app) as session, readers_of(app) as readers:
            word = "quixoticmarmalade"
            (before,) = await answers(session, [word])
            assert before[0]["hits"] == []
            root = app.settings.workspace_root
            assert root is not None
            (root / "repo" / "src" / "jam.py").write_text(f"def {word}():\n    return 1\n")
            refreshed = await call(
                session, "repocontext_refresh", {"repoId": "repo", "paths": ["src/jam.py"]}
            )
            assert refreshed["searchable"] is True
            (after,) = await answers(session, [word])
            assert [h["entry"]["path"] for h in after[0]["hits"]][:1] == ["src/jam.py"]
            assert readers.answered == 2


async def test_a_reader_that_dies_is_replaced_and_its_search_answered(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, _):
        await postings_built(app)
        async with served(app) as session:
            here = await answers(session, QUERIES)
            async with readers_of(app) as readers:
                first = readers.pids()
                os.kill(first[0], signal.SIGKILL)
                there = await answers(session, QUERIES)
                deadline = time.monotonic() + 120
                while readers.restarts < 1 or len(readers.pids()) < 2:
                    assert time.monotonic() < deadline, "no reader started again within 120 s"
                    await asyncio.sleep(0.05)
                assert first[0] not in readers.pids() and first[1] in readers.pids()
                again = await answers(session, QUERIES)
    assert there == here and again == here


async def test_a_search_past_its_deadline_leaves_its_reader_usable(tmp_path: Path) -> None:
    """The caller stops waiting; the reader's late answer is dropped, not given to the next
    search, and the reader goes back to the idle ones."""
    async with memory_rig(tmp_path, index=True) as (app, _):
        await postings_built(app)
        async with served(app) as session:
            here = await answers(session, QUERIES)
            async with readers_of(app, count=1) as readers:
                args = SearchArgs(repoId="repo", query=QUERIES[0], k=10)
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(readers.rank(args, True), 0.001)
                deadline = time.monotonic() + 60
                while readers.idle() < 1:
                    assert time.monotonic() < deadline, "the reader did not come back"
                    await asyncio.sleep(0.01)
                there = await answers(session, QUERIES)
                assert readers.answered == len(QUERIES)
    assert there == here


async def test_readers_start_once_the_keyword_index_is_complete(tmp_path: Path) -> None:
    """Before that, the owner ranks: a reader's file graphs built over a half-applied index
    would fill answers' tails from them until rebuilt."""
    complete = False

    async def settled() -> bool:
        return complete

    async with memory_rig(tmp_path, index=True) as (app, _):
        readers = SearchReaders(app.views, 1, app.service.rank_here)
        readers.start(settled)
        try:
            assert not await readers.wait_ready(1.5) and readers.pids() == []
            args = SearchArgs(repoId="repo", query=QUERIES[0], k=10)
            assert (await readers.rank(args, True)).hits and readers.answered == 0
            complete = True
            assert await readers.wait_ready(120)
            await readers.rank(args, True)
            assert readers.answered == 1
        finally:
            await readers.close()


async def test_readers_need_a_keyword_only_server() -> None:
    with pytest.raises(UsageError, match="--embedder none"):
        await start_search_readers(object(), 2, "local")
    assert await start_search_readers(object(), 0, "local") is None


async def test_a_reader_without_views_says_so(tmp_path: Path) -> None:
    from query_api.server.search_readers import ReaderGone, ReaderProcess

    with pytest.raises(ReaderGone, match="did not start"):
        await ReaderProcess.start(str(tmp_path / "missing.db"))


async def test_the_stdio_mcp_command_ranks_in_its_readers(tmp_path: Path) -> None:
    """`repocontext mcp` starts REPOCONTEXT_SEARCH_READERS readers as `serve` does, and
    they answer what the command answers without them."""
    repo = write_sample_repo(tmp_path / "workspace" / "sample")
    queries = ["InvoiceCalculator", "reconcile the quarterly ledger", "post an entry", "qqqq"]

    async def answered(session: ClientSession) -> list[Any]:
        """The answers, scores to 9 places: a search the command ranks itself right after
        indexing may score in SQL before its postings are built (a last digit may differ)."""
        out = []
        for query in queries:
            found = await call(session, "repocontext_search", {"repoId": "sample", "query": query})
            found.pop("freshness", None)
            for hit in found["hits"]:
                hit["score"] = round(hit["score"], 9)
            out.append(found)
        return out

    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "sample")
        here = await answered(session)
    env = child_env(tmp_path / "data") | {"REPOCONTEXT_SEARCH_READERS": "1"}
    command = cli_command("mcp", str(repo))
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    log_path = tmp_path / "mcp.log"
    with log_path.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await wait_indexed(session, "sample")
            deadline = time.monotonic() + 120
            while "answers searches" not in log_path.read_text():
                assert time.monotonic() < deadline, "no search reader joined within 120 s"
                await asyncio.sleep(0.1)
            there = await answered(session)
    assert there == here and here[0]["hits"] and not here[-1]["hits"]
