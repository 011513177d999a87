"""Start fast (issue 21 item 5): a long-running host starts the vector plane (model load,
warm-up, backfill) only once the keyword index of its repository is complete, so loading and
embedding do not compete with the indexer for the first keyword answers. Real pipeline, views
and in-process Qdrant; the embedder is the deterministic test one, recording what the keyword
index held when it was first called."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from query_api.retrieval.vector_plane import VectorPlane
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from streams.embedders.base import EmbedResult, TextType
from tests.vectors.fake_embedder import HashEmbedder

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

FILES = 120


class FirstCallRecorder(HashEmbedder):
    """Records the repository's ingest status and indexed file count at its first call
    (`is_available` loads the local model)."""

    def __init__(self, app: EmbeddedApp) -> None:
        super().__init__()
        self.app = app
        self.first: tuple[object, int] | None = None

    def _record(self) -> None:
        if self.first is None:
            status = (self.app.ingest.job("repo") or {}).get("status")
            self.first = (status, self.app.views.file_count("repo"))

    def is_available(self) -> bool:
        self._record()
        return super().is_available()

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        self._record()
        return super().embed(texts, kind)


async def test_vector_plane_waits_for_the_keyword_index(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    for i in range(FILES):
        (repo / "pkg" / f"mod{i}.py").parent.mkdir(parents=True, exist_ok=True)
        (repo / "pkg" / f"mod{i}.py").write_text(f"def handler_{i}(request):\n    return {i}\n")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    async with EmbeddedApp(settings) as app:
        embedder = FirstCallRecorder(app)
        plane = VectorPlane(settings, app.log, app.views, embedder=embedder, pacer=app.pacer)
        app.plane = app.service.plane = plane  # what open() wires from the settings
        app.service.retriever = plane.retriever
        try:
            await app.start(vectors=False)  # what `repocontext mcp PATH` does
            await app.service.ensure_repo(str(repo), "repo")
            app.start_vectors()
            deadline = time.monotonic() + 60
            while embedder.first is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert embedder.first == ("Completed", FILES)
        finally:
            plane.close()
