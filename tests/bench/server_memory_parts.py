"""Where a server's memory goes on a large repository (issue 21 item 4), in one process:

    .venv/bin/python -m tests.bench.server_memory_parts [CHECKOUT]   (default: the pinned Django)

1. indexes CHECKOUT keyword-only into a fresh data directory, then opens it as a host does
   (no vector plane), runs four searches (they build the in-memory postings) and idles 25 s;
2. starts the vector plane with the local embedder, its passage batches answered by placeholder
   vectors (tests/bench/passage_sample.RecordedPassages: the step, the store and the HNSW build
   run as usual; only the encoder child is left out, measured by tests/bench/mcp_start_memory),
   waits for full coverage, runs the four searches again (the query model loads) and samples
   every child (the HNSW build) for 60 s.

At each step: RSS split into anonymous and file-backed (mapped store files, the model's
memory-mapped word table, libraries), SQLite's own allocations (page caches,
sqlite3_memory_used), and the children's RSS. Nothing is asserted.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from query_api.settings import Settings, default_data_dir
from repocontext.app import EmbeddedApp
from schemas import tools as t
from tests.bench.indexing import fetch_corpus
from tests.bench.mcp_start_memory import children
from tests.bench.passage_sample import RecordedPassages

QUERIES = ("response body", "queryset filter annotate", "migration autodetector", "csrf token")


def _status(pid: int, *keys: str) -> dict[str, int]:
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in keys:
                    out[key] = int(value.split()[0]) // 1024
    except OSError:
        pass
    return out


def _sqlite_mib() -> int:
    import _sqlite3

    lib = ctypes.CDLL(_sqlite3.__file__)
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return int(lib.sqlite3_memory_used()) // 2**20


def say(step: str) -> None:
    own = _status(os.getpid(), "VmRSS", "RssAnon", "RssFile")
    kids = [f"{pid}:{_status(pid, 'VmRSS').get('VmRSS', 0)}" for pid in children(os.getpid())]
    print(
        f"{step}: RSS {own.get('VmRSS')} MiB (anon {own.get('RssAnon')}, file "
        f"{own.get('RssFile')}), SQLite {_sqlite_mib()} MiB, children (pid:MiB) {kids or '-'}",
        flush=True,
    )


async def searches(app: EmbeddedApp) -> str:
    paths = [(await app.service.search(t.SearchArgs(query=q, k=10))).retrievalPath for q in QUERIES]
    return ", ".join(sorted({str(p) for p in paths}))


async def run(root: Path, data: Path) -> None:
    env = dict(os.environ, REPOCONTEXT_DATA_DIR=str(data), REPOCONTEXT_EMBEDDER="none")
    command = [sys.executable, "-m", "repocontext.cli", "index", str(root)]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    settings = Settings(data_dir=data, embedder="local", hybrid=True, compaction_interval_s=3600.0)
    recorded = RecordedPassages()
    with recorded.installed():
        app = EmbeddedApp(settings, watch=False)
        await app.open()
        await app.start(resume=True, vectors=False)
        say("1. host open, keyword only")
        print(f"   searches: {await searches(app)}")
        await asyncio.sleep(25)
        say("1. after 4 searches and 25 s")
        app.start_vectors()
        began = time.monotonic()
        while app.plane.indexer is None or await app.plane.indexer.behind() > 0:
            await asyncio.sleep(1)
        say(
            f"2. vectors covered ({len(recorded.texts)} passages, {time.monotonic() - began:.0f} s)"
        )
        print(f"   searches: {await searches(app)}")
        peak = 0
        for second in range(60):
            await asyncio.sleep(1)
            peak = max(
                peak, sum(_status(p, "VmRSS").get("VmRSS", 0) for p in children(os.getpid()))
            )
            if second % 20 == 19:
                say(f"2. +{second + 1} s")
        print(f"   children's peak RSS over those 60 s: {peak} MiB")
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        say("2. after malloc_trim")
        await app.close()


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else fetch_corpus(default_data_dir() / "bench")
    with tempfile.TemporaryDirectory(prefix="memory-parts-") as data:
        asyncio.run(run(root.resolve(), Path(data)))


if __name__ == "__main__":
    main()
