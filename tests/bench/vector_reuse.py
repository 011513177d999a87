"""Vectors after a folder is deleted and restored (a branch switched away and back): passages
embedded again and seconds until the vector step settles, with the recent-vectors cache off
(capacity 0, as before it existed) and on, alternating in one process.

    python -m tests.bench.vector_reuse REPO [--folder lib] [--rounds 2]

REPO is copied to a temporary workspace (its `.git` and `node_modules` left out) and indexed
with the local embedder; FOLDER is then moved out, refreshed, moved back and refreshed.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from pathlib import Path

from query_api.retrieval.vector_plane import VectorPlane, embedder_from
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from streams.recent_vectors import RECENT_PASSAGES, RecentVectors


async def restore_once(repo: Path, folder: str, capacity: int, base: Path) -> tuple[int, float]:
    """(passages embedded, seconds to settle) for FOLDER restored, the cache at `capacity`."""
    ws = base / "ws"
    shutil.copytree(repo, ws / "repo", ignore=shutil.ignore_patterns(".git", "node_modules"))
    settings = Settings(data_dir=base / "data", workspace_root=ws, embedder="none")
    local = embedder_from(settings.model_copy(update={"embedder": "local"}))
    async with EmbeddedApp(settings, watch=False) as app:
        plane = VectorPlane(settings, app.log, app.views, embedder=local)
        app.service.plane, app.service.retriever = plane, plane.retriever
        try:
            await app.service.add_repo(t.AddRepoArgs(path=str(ws / "repo"), repoId="repo"))
            await app.runtime.run_until_idle()
            step = plane.indexer
            assert step is not None
            step.recent = RecentVectors(capacity)
            await step.run_until_idle()
            moved = ws / "repo" / folder
            paths = [p.relative_to(ws / "repo").as_posix() for p in moved.rglob("*") if p.is_file()]

            async def settle() -> None:
                await app.ingest.refresh("repo", paths)
                await app.runtime.run_until_idle()
                await step.run_until_idle()

            shutil.move(moved, base / "away")
            await settle()
            shutil.move(base / "away", moved)
            before, started = step.counters.passages_embedded, time.perf_counter()
            await settle()
            return step.counters.passages_embedded - before, time.perf_counter() - started
        finally:
            plane.close()


async def main(repo: Path, folder: str, rounds: int) -> None:
    for _ in range(rounds):
        for capacity in (0, RECENT_PASSAGES):
            with tempfile.TemporaryDirectory() as tmp:
                embedded, took = await restore_once(repo, folder, capacity, Path(tmp))
            print(f"cache {capacity:5}: {embedded} passages embedded, settled in {took:.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--folder", default="lib")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.repo.resolve(), args.folder, args.rounds))
