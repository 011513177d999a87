"""A tool call over HTTP is answered with one JSON body holding exactly the message the SDK's
per-call SSE stream carried (query_api/server/http_app.py). Real app, uvicorn on a real socket,
raw HTTP and the real MCP client."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from query_api.server.http_app import build_http_app
from query_api.server.http_serve import bind_listener
from repocontext.app import EmbeddedApp
from schemas.tools import SearchArgs
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from tests.integration.mcp_helpers import call, http_session
from tests.integration.memory_rig import memory_rig
from tests.integration.test_http_limits import ACCEPT, INITIALIZE

pytestmark = pytest.mark.anyio

SEARCH = {"repoId": "repo", "query": "compute the invoice total", "k": 5}


@contextlib.asynccontextmanager
async def listening(asgi: Any) -> AsyncIterator[str]:
    """`asgi` served by uvicorn on a free loopback port until the block ends."""
    listener = bind_listener("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(asgi, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    deadline = time.monotonic() + 30
    while not server.started:
        assert not task.done(), "uvicorn stopped before it served"
        assert time.monotonic() < deadline, "uvicorn did not start within 30 s"
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        listener.close()


async def postings_built(app: EmbeddedApp) -> None:
    """A first search builds the in-memory postings in the background; until they are built,
    searches are scored in SQL, whose float sums may differ in the last digit."""
    await app.service.search(SearchArgs.model_validate(SEARCH))
    for mirror in (app.views.mirror(CONTENT_FIELDS), app.views.mirror(SYMBOL_FIELDS)):
        assert await asyncio.to_thread(mirror.wait_built, 60), "no postings within 60 s"


async def raw_search(base: str) -> httpx.Response:
    """initialize, initialized, then one search, as plain HTTP requests."""
    async with httpx.AsyncClient(base_url=base, headers={"Accept": ACCEPT}, timeout=30) as http:
        opened = await http.post("/mcp", json=INITIALIZE)
        assert opened.status_code == 200, opened.text
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await http.post("/mcp", json=ready, headers=session)).status_code == 202
        params = {"name": "repocontext_search", "arguments": SEARCH}
        request = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}
        answer = await http.post("/mcp", json=request, headers=session)
        assert answer.status_code == 200, answer.text
        return answer


async def test_a_call_is_answered_with_the_message_the_sse_stream_carried(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, _):
        await postings_built(app)
        answers = {}
        for json_response in (False, True):
            asgi = build_http_app(
                app.mcp_server(), app.service, "127.0.0.1", json_response=json_response
            )
            async with listening(asgi) as base:
                answers[json_response] = await raw_search(base)
                if json_response:  # the real client reads the plain body as it read the stream
                    async with http_session(base) as session:
                        found = await call(session, "repocontext_search", SEARCH)
        streamed, plain = answers[False], answers[True]
        assert streamed.headers["content-type"].startswith("text/event-stream")
        assert plain.headers["content-type"] == "application/json"
        events = [line for line in streamed.text.splitlines() if line.startswith("data: ")]
        assert [line.removeprefix("data: ") for line in events] == [plain.text]
        assert found["hits"][0]["entry"]["path"] == "src/billing/invoice.py"
