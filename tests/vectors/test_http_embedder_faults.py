"""An OpenAI-compatible embedding server that misbehaves, through the real HttpEmbedder, the
real ladder and vector step (a real HTTP server on a local port, not a transport mock).

Found by hand: a server that accepted the connection and never answered stalled every search
and every bundle of the repository (each call ran into the tool's 30 s deadline instead of
answering by keyword), a server answering NaN vectors had them stored as the file's passages,
and an `--embedder http` without its endpoint was an "internal error".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pydantic import ValidationError

from query_api.retrieval.ladder import Retriever
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_plane import VectorPlane
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from schemas.retrieval import RetrievalPath
from streams.embedders.http import HttpEmbedder
from tests.ingested import ingested
from tests.vectors.fake_embedder import DIM, vector
from tests.vectors.test_ladder import make_repo

pytestmark = pytest.mark.anyio


class Endpoint:
    """`mode`: ok | hang (holds every request until released) | slow (1.5 s a request) | nan."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.release = threading.Event()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return None

            def _send(self, body: object) -> None:
                raw = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self) -> None:
                if self.path != "/v1/models":
                    self.send_error(404)
                    return
                self._send({"data": [{"id": "m"}]})

            def do_POST(self) -> None:
                if self.path != "/v1/embeddings":
                    self.send_error(404)
                    return
                texts = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["input"]
                if endpoint.mode == "hang":
                    endpoint.release.wait(60)
                if endpoint.mode == "slow":
                    time.sleep(1.5)
                if endpoint.mode == "nan":
                    rows = [[float("nan")] * DIM for _ in texts]
                else:
                    rows = [vector(text) for text in texts]
                self._send({"data": [{"index": i, "embedding": r} for i, r in enumerate(rows)]})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    e = Endpoint()
    try:
        yield e
    finally:
        e.close()


@contextlib.asynccontextmanager
async def covered_retriever(
    tmp_path: Path, endpoint: Endpoint, breaker_open_s: float
) -> AsyncIterator[Retriever]:
    """The sample repository fully embedded through `endpoint`, and a retriever over it whose
    query embedding is bounded at 1 s."""
    repo = make_repo(tmp_path / "ws" / "repo")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    embedder = HttpEmbedder(endpoint.url, "m", DIM, backoff_s=0.0)
    async with EmbeddedApp(settings, watch=False) as app:
        plane = VectorPlane(settings, app.log, app.views, embedder=embedder)
        try:
            await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="repo"))
            await ingested(app, "repo")
            assert await app.runtime.wait_idle(30)
            assert plane.indexer is not None
            await plane.indexer.run_until_idle()
            yield Retriever(
                app.views,
                embedder,
                plane.store,
                Readiness(True),
                embed_timeout_s=1.0,
                breaker_open_s=breaker_open_s,
            )
        finally:
            endpoint.release.set()
            plane.close()


async def test_a_hanging_embedder_does_not_stall_searches(
    tmp_path: Path, endpoint: Endpoint
) -> None:
    async with covered_retriever(tmp_path, endpoint, breaker_open_s=1.0) as retriever:
        assert (await retriever.search("repo", "ledger", 5)).path in (
            RetrievalPath.SEMANTIC_EXACT,
            RetrievalPath.SEMANTIC_APPROXIMATE,
        )
        endpoint.mode = "hang"
        started = time.monotonic()
        answer = await retriever.search("repo", "quarterly ledger", 5)
        first = time.monotonic() - started
        assert answer.path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
        assert [h.entry.path for h in answer.hits][:1] == ["ledger/reconcile.py"]
        assert first < 5.0, f"the first search waited {first:.1f} s for the embedder"
        started = time.monotonic()  # the embedder still holds the call: answer at once
        again = await retriever.search("repo", "invoice total", 5)
        assert again.path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
        assert time.monotonic() - started < 0.9
        endpoint.mode = "ok"  # it comes back: the held call ends, semantic answers again
        endpoint.release.set()
        deadline = time.monotonic() + 30
        path: RetrievalPath = again.path
        while time.monotonic() < deadline and path not in (
            RetrievalPath.SEMANTIC_EXACT,
            RetrievalPath.SEMANTIC_APPROXIMATE,
        ):
            await asyncio.sleep(0.2)
            path = (await retriever.search("repo", "ledger", 5)).path
        assert path in (RetrievalPath.SEMANTIC_EXACT, RetrievalPath.SEMANTIC_APPROXIMATE)


async def test_after_a_query_embedding_timed_out_searches_do_not_wait_again(
    tmp_path: Path, endpoint: Endpoint
) -> None:
    """An embedder slower than the query's bound (each request ends, late): every search,
    one after another, waited the whole bound again (10 s each, measured on koa). After a
    timeout the searches of the breaker's period answer by keyword at once; then one probe."""
    async with covered_retriever(tmp_path, endpoint, breaker_open_s=3.0) as retriever:
        endpoint.mode = "slow"
        first = await retriever.search("repo", "quarterly ledger", 5)
        assert first.path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
        await asyncio.sleep(1.0)  # the late request has ended: no call is held now
        assert embedder_idle(retriever)
        started = time.monotonic()
        again = await retriever.search("repo", "invoice total", 5)
        waited = time.monotonic() - started
        assert again.path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
        assert again.hits and waited < 0.5, f"the second search waited {waited:.1f} s"
        endpoint.mode = "ok"
        await asyncio.sleep(3.0)  # past the period: one probe, and semantic again
        probe = await retriever.search("repo", "ledger", 5)
        assert probe.path in (RetrievalPath.SEMANTIC_EXACT, RetrievalPath.SEMANTIC_APPROXIMATE)


def embedder_idle(retriever: Retriever) -> bool:
    return retriever.queries.running_for() is None


async def test_nan_vectors_are_a_failure_not_passages(
    tmp_path: Path, endpoint: Endpoint, caplog: pytest.LogCaptureFixture
) -> None:
    endpoint.mode = "nan"
    embedder = HttpEmbedder(endpoint.url, "m", DIM, retries=0)
    result = embedder.embed(["def f():\n    return 1\n"])
    assert not result.ok and "finite" in (result.error or "")
    assert not embedder.embed(["ledger"], "query").ok
    embedder.close()


async def test_a_failing_embedder_is_logged_once_and_named_by_health(
    tmp_path: Path, endpoint: Endpoint, caplog: pytest.LogCaptureFixture
) -> None:
    repo = make_repo(tmp_path / "ws" / "repo")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    endpoint.mode = "nan"
    embedder = HttpEmbedder(endpoint.url, "m", DIM, retries=0)
    async with EmbeddedApp(settings, watch=False) as app:
        plane = VectorPlane(settings, app.log, app.views, embedder=embedder)
        app.service.plane, app.service.retriever = plane, plane.retriever
        assert plane.indexer is not None
        plane.indexer.retry_seconds = 0.05
        stop = asyncio.Event()
        try:
            await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="repo"))
            await ingested(app, "repo")
            assert await app.runtime.wait_idle(30)
            with caplog.at_level(logging.INFO, logger="streams.vectors_step"):
                task = asyncio.create_task(plane.indexer.run_forever(stop))
                await asyncio.sleep(1.0)  # many retries
                health = await app.service.health(t.NoArgs())
                assert "embedding fails" in health.status and "finite" in health.status
                endpoint.mode = "ok"
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline and plane.indexer.counters.failing:
                    await asyncio.sleep(0.1)
                stop.set()
                await task
            lines = [r.getMessage() for r in caplog.records if r.name == "streams.vectors_step"]
            failed = [line for line in lines if "retrying" in line]
            assert len(failed) == 1, lines  # once per change, not once per retry
            assert any("answers again" in line for line in lines), lines
            assert not plane.indexer.counters.failing
            health = await app.service.health(t.NoArgs())
            assert "embedding fails" not in health.status
        finally:
            stop.set()
            plane.close()


def test_http_embedder_settings_are_named_when_missing() -> None:
    with pytest.raises(ValidationError) as raised:
        Settings(embedder="http", embedder_model="m")
    message = str(raised.value)
    assert "REPOCONTEXT_EMBEDDER_URL" in message and "REPOCONTEXT_EMBEDDER_DIMENSION" in message
    assert "REPOCONTEXT_EMBEDDER_MODEL" not in message
    Settings(embedder="http", embedder_url="http://x", embedder_model="m", embedder_dimension=4)


def test_a_base_url_with_v1_is_not_doubled(endpoint: Endpoint) -> None:
    for base in (endpoint.url, endpoint.url + "/v1", endpoint.url + "/v1/embeddings/"):
        embedder = HttpEmbedder(base, "m", DIM, retries=0)
        assert embedder.is_available() and embedder.embed(["a"]).ok, base
        embedder.close()
