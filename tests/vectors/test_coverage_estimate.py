"""The passages-pending estimate behind every coverage ETA and progress line (issue 21): tests
and docs files only get a marker, so they add nothing pending, and the total (embedded plus
pending) holds still while the vector step works through the files. Real pipeline, views,
in-process Qdrant and vector step; the step is driven three records at a time so the coverage
is read between batches, as a server's progress line reads it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import streams.vectors_step
from query_api.retrieval.vector_plane import VectorPlane
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from tests.ingested import ingested
from tests.vectors.fake_embedder import HashEmbedder

pytestmark = pytest.mark.anyio


def function(i: int) -> str:
    body = "".join(f"    value = transform_{k}(value, limit={i * k})\n" for k in range(6))
    return f'def step_{i}(value):\n    """Step {i} of the pipeline."""\n{body}    return value\n'


def make_repo(root: Path) -> None:
    """Source modules from 1 to 40 functions (1 to ~9 passages each) between many tests and
    docs files, in path order as the walk meets them."""
    files: dict[str, str] = {}
    for i, count in enumerate((40, 1, 25, 3, 12, 1, 33, 6)):
        files[f"pkg/mod{i}.py"] = "\n\n".join(function(j) for j in range(count))
        for k in range(6):
            files[f"pkg/tests/test_mod{i}_{k}.py"] = "\n\n".join(function(j) for j in range(20))
    for k in range(10):
        files[f"docs/page{k}.md"] = "# A page\n\n" + "Prose about the pipeline.\n" * 80
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)


async def test_pending_counts_only_what_will_be_embedded_and_the_total_holds_still(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_repo(tmp_path / "ws" / "repo")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws", embedder="none")
    monkeypatch.setattr(streams.vectors_step, "RECORD_BATCH", 3)
    async with EmbeddedApp(settings, watch=False) as app:
        plane = VectorPlane(settings, app.log, app.views, embedder=HashEmbedder())
        app.service.plane, app.service.retriever = plane, plane.retriever
        try:
            await app.service.add_repo(t.AddRepoArgs(path=str(tmp_path / "ws" / "repo")))
            await ingested(app, "repo")
            assert plane.indexer is not None and plane.coverage is not None
            plane.coverage.ttl_s = 0.0
            seen: list[t.VectorCoverage] = []
            while True:
                seen.append(plane.coverage.of("repo"))
                if not await plane.indexer.run_once():
                    break
        finally:
            plane.close()
    final = seen[-1]
    assert final.complete and final.passagesPending == 0 and final.filesTotal == 66
    totals = [c.passagesEmbedded + c.passagesPending for c in seen]
    # 48 tests files and 10 docs pages hold far more text than the 8 modules: counted as
    # pending, the first estimate was several times the real total.
    assert abs(totals[0] - final.passagesEmbedded) <= 0.15 * final.passagesEmbedded, totals
    # The total does not swing with the mix of files embedded so far; once complete it is
    # the count itself.
    moving = totals[:-1]
    assert max(totals) <= 1.15 * final.passagesEmbedded, totals
    assert all(a <= b for a, b in itertools.pairwise(moving)), totals
