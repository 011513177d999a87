"""Vector-plane benchmarks (not tests; nothing here asserts a time):

    .venv/bin/python -m tests.bench.vector_bench embed     # passages/s at 64/128/256 tokens
    .venv/bin/python -m tests.bench.vector_bench search    # p50/p99 at N x 384, during a build
    .venv/bin/python -m tests.bench.vector_bench devset    # R@1/5/10, MRR: keyword/vector/hybrid
    .venv/bin/python -m tests.bench.vector_bench devset 1600,200,32   # ... at another geometry
    .venv/bin/python -m tests.bench.vector_bench windows   # truncation at 256 tokens, Django
    .venv/bin/python -m tests.bench.vector_bench backfill  # Django backfill; ANN recall on it
    .venv/bin/python -m tests.bench.vector_bench latency DIR [N]  # per path, on DIR's store

The machine is shared and noisy: each figure comes with the conditions it ran under.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# The numpy encoder before the packed/threaded rewrite, loaded from git for side-by-side runs.
BASELINE_COMMIT = "ac580bb"


def _baseline_module() -> Any:
    import subprocess
    import types

    source = subprocess.run(
        ["git", "show", f"{BASELINE_COMMIT}:streams/embedders/local.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType("baseline_local_embedder")
    exec(compile(source, "baseline_local_embedder", "exec"), module.__dict__)
    return module


def bench_embed(threads: int = 1, n: int = 32, runs: int = 5) -> dict[str, Any]:
    """Passages/s, old (BASELINE_COMMIT) vs new encoder, alternating run by run in one process
    so both see the same machine load; medians of `runs`, plus the worst cosine to the
    committed sentence-transformers vectors."""
    import numpy as np

    from streams.embedders.local import LocalEmbedder, model_dir
    from streams.embedders.minilm import limit_blas_threads

    embedder = LocalEmbedder(threads=threads)
    assert embedder.is_available()
    model = embedder.query_model()
    assert model is not None
    folder = model_dir()
    assert folder is not None
    baseline = _baseline_module().MiniLM(folder, threads=threads)
    out: dict[str, Any] = {"threads": threads, "passages": n, "runs": runs}
    ref = json.loads((ROOT / "tests/data/minilm_reference.json").read_text())
    got = np.asarray(embedder.embed(ref["passages"]).vectors, dtype=np.float32)
    want = np.asarray(ref["vectors"], dtype=np.float32)
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    out["min_cosine_vs_reference"] = round(float((got * want).sum(axis=1).min()), 6)
    words = ["parse", "config", "file", "retry", "backoff", "invoice", "ledger"]
    words += ["cache", "evict", "user", "mail"]
    rnd = random.Random(1)
    for tokens in (64, 128, 256):
        texts = []
        for _ in range(n):
            text = " ".join(rnd.choice(words) for _ in range(tokens))
            while model.token_count(text) > tokens:
                text = text.rsplit(" ", 1)[0]
            texts.append(text)
        rates: dict[str, list[float]] = {"old": [], "new": [], "old_cpu": [], "new_cpu": []}
        for _ in range(runs):
            limit_blas_threads(threads)  # the old encoder's threading: OpenBLAS's own pool
            started, cpu = time.perf_counter(), time.process_time()
            baseline.encode(texts[:n])
            rates["old"].append(n / (time.perf_counter() - started))
            rates["old_cpu"].append(n / (time.process_time() - cpu))
            limit_blas_threads(1)  # the new one: its own workers, one BLAS thread each
            started, cpu = time.perf_counter(), time.process_time()
            assert embedder.embed(texts).ok
            rates["new"].append(n / (time.perf_counter() - started))
            rates["new_cpu"].append(n / (time.process_time() - cpu))
        med = {key: statistics.median(values) for key, values in rates.items()}
        # Wall-clock rates depend on what else runs; per CPU-second they show the work itself.
        out[f"{tokens}_tokens_per_s"] = {
            "old": round(med["old"], 1),
            "new": round(med["new"], 1),
            "speedup": round(med["new"] / med["old"], 2),
            "old_per_cpu_s": round(med["old_cpu"], 1),
            "new_per_cpu_s": round(med["new_cpu"], 1),
        }
    embedder.close()
    return out


def bench_search(n: int = 100_000, dim: int = 384, queries: int = 200) -> dict[str, Any]:
    import numpy as np

    from streams.embedders.base import EmbeddingSpace
    from streams.stores.vectors import EdgeVectorStore, VectorPoint, point_id

    rng = np.random.default_rng(5)
    centres = rng.normal(size=(200, dim)).astype(np.float32)
    data = centres[rng.integers(0, 200, n)] + rng.normal(scale=0.35, size=(n, dim)).astype(
        np.float32
    )
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    tmp = Path(tempfile.mkdtemp(prefix="vbench-"))
    store = EdgeVectorStore(tmp, EmbeddingSpace("bench", dim, True))
    started = time.perf_counter()
    for start in range(0, n, 2000):
        store.upsert(
            [
                VectorPoint(point_id("r/f", i), data[i].tolist(), {"repo_id": "r", "kind": "file"})
                for i in range(start, min(n, start + 2000))
            ]
        )
    out: dict[str, Any] = {"vectors": n, "dim": dim, "load_s": round(time.perf_counter() - started)}
    qs = [
        (data[rng.integers(0, n)] + rng.normal(scale=0.1, size=dim)).tolist()
        for _ in range(queries)
    ]

    def timed(exact: bool) -> tuple[list[float], list[set[str]]]:
        lat, ids = [], []
        for q in qs:
            t0 = time.perf_counter()
            hits = store.search(q, 80, repo_id="r", exact=exact)
            lat.append((time.perf_counter() - t0) * 1000)
            ids.append({h.id for h in hits[:10]})
        return lat, ids

    exact_lat, exact_ids = timed(True)
    out["exact_ms"] = {"p50": round(pct(exact_lat, 0.5), 2), "p99": round(pct(exact_lat, 0.99), 2)}

    # An HNSW build in the background (child process): search p99 meanwhile (exact arm).
    during: list[float] = []
    done = threading.Event()

    def build() -> None:
        t0 = time.perf_counter()
        store.build_index()
        out["build_s"] = round(time.perf_counter() - t0, 1)
        done.set()

    threading.Thread(target=build).start()
    while not done.is_set():
        for q in qs[:20]:
            t0 = time.perf_counter()
            store.search(q, 80, repo_id="r", exact=True)
            during.append((time.perf_counter() - t0) * 1000)
    out["exact_during_build_ms"] = {
        "p50": round(pct(during, 0.5), 2),
        "p99": round(pct(during, 0.99), 2),
        "n": len(during),
    }
    approx_lat, approx_ids = timed(False)
    out["approximate_ms"] = {
        "p50": round(pct(approx_lat, 0.5), 2),
        "p99": round(pct(approx_lat, 0.99), 2),
    }
    recall = [len(a & e) / 10 for a, e in zip(approx_ids, exact_ids, strict=True)]
    out["recall_at_10_vs_exact"] = round(statistics.mean(recall), 4)
    store.close()
    return out


GEOMETRIES = ((1600, 200, 32), (800, 100, 64), (700, 100, 64))  # (window, overlap, max)


def set_geometry(window: int, overlap: int, most: int) -> None:
    """Window geometry for a bench run (the vector step reads these module constants)."""
    import processors.vectors as pv

    pv.WINDOW, pv.OVERLAP, pv.MAX_WINDOWS = window, overlap, most


def bench_windows() -> dict[str, Any]:
    """File windows of the pinned Django corpus at each geometry: wordpieces per char, how
    many windows overrun MiniLM's 256-token input, and what share of tokens that drops."""
    from tokenizers import Tokenizer

    from processors.vectors import file_passages
    from query_api.settings import default_data_dir
    from streams.embedders.local import MAX_TOKENS, model_dir
    from tests.bench.indexing import fetch_corpus

    folder = model_dir()
    assert folder is not None
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    tree = fetch_corpus(default_data_dir() / "bench")
    bodies = []
    for path in sorted(tree.rglob("*")):
        if path.is_file():
            raw = path.read_bytes()
            if b"\0" not in raw[:8000]:
                bodies.append((str(path.relative_to(tree)), raw.decode("utf-8", "replace")))
    out: dict[str, Any] = {"corpus": str(tree), "files": len(bodies)}
    for window, overlap, most in GEOMETRIES:
        set_geometry(window, overlap, most)
        texts = [p.text for rel, body in bodies for p in file_passages("r", rel, body)]
        counts = [len(e.ids) for e in tok.encode_batch(texts)]
        total = sum(counts)
        out[f"{window}/{overlap}/{most}"] = {
            "windows": len(texts),
            "tokens_per_char": round(total / sum(len(t) for t in texts), 3),
            "median_tokens": statistics.median(counts),
            "truncated": round(sum(c > MAX_TOKENS for c in counts) / len(counts), 3),
            "tokens_lost": round(sum(max(0, c - MAX_TOKENS) for c in counts) / total, 3),
            "tokens_embedded": sum(min(c, MAX_TOKENS) for c in counts),
        }
    return out


# -- retrieval dev set: issue-style questions about this repository -> the file that answers --

DEV_SET: list[tuple[str, str]] = [
    (
        "where are poison events sent when a processor cannot handle them",
        "streams/runtime/steps.py",
    ),
    (
        "which component decides whether the server is ready to answer",
        "query_api/retrieval/readiness.py",
    ),
    ("split text into identifier-aware tokens, camel case humps", "processors/tokenizer.py"),
    ("sliding windows of 1600 characters over a file for embedding", "processors/vectors.py"),
    ("run the MiniLM transformer without pytorch", "streams/embedders/local.py"),
    ("call an OpenAI compatible embeddings endpoint with retries", "streams/embedders/http.py"),
    ("fall back from approximate search to exact and then BM25", "query_api/retrieval/ladder.py"),
    ("honour nested gitignore files while walking a directory", "streams/sources/ignore.py"),
    ("debounce file system change notifications", "streams/sources/watcher.py"),
    (
        "remember file size and mtime to skip rehashing unchanged files",
        "streams/sources/manifest.py",
    ),
    ("drop old records that have a newer value for the same key", "streams/eventlog/compaction.py"),
    ("the list of topics, their keys and retention policies", "schemas/topics.py"),
    ("refuse paths outside the configured workspace root", "query_api/access/guard.py"),
    ("prometheus metrics exposition", "query_api/metrics.py"),
    ("store the event log in a SQLite database with WAL", "streams/eventlog/sqlite.py"),
    ("decide whether a file is binary by looking for a NUL byte", "streams/sources/walker.py"),
    ("detect the programming language of a file from its extension", "processors/language.py"),
    ("HNSW build in a child process because it holds the GIL", "streams/stores/vectors.py"),
    (
        "embed new passages in the background with deduplication by content hash",
        "streams/vectors_step.py",
    ),
    ("environment variables read into one settings object", "query_api/settings.py"),
    ("rank files with FTS5 bm25 and column weights", "streams/stores/views/search.py"),
    ("lock the data directory so only one process indexes it", "repocontext/app.py"),
]


async def _devset_async(hybrid_only: bool = False) -> dict[str, Any]:
    from query_api.settings import Settings
    from repocontext.app import EmbeddedApp
    from schemas import tools as t
    from streams.stores.views.search import keyword_hits

    tmp = Path(tempfile.mkdtemp(prefix="vdev-"))
    workspace = tmp / "ws"
    corpus = workspace / "repocontext"
    for package in ("schemas", "processors", "streams", "query_api"):
        for src in (ROOT / package).rglob("*.py"):
            dst = corpus / src.relative_to(ROOT)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(src.read_text())
    settings = Settings(
        data_dir=tmp / "data", workspace_root=workspace, embedder="local", embed_threads=2
    )
    import processors.vectors as pv

    out: dict[str, Any] = {"geometry": [pv.WINDOW, pv.OVERLAP, pv.MAX_WINDOWS]}
    async with EmbeddedApp(settings, watch=False) as app:
        await app.service.add_repo(t.AddRepoArgs(path=str(corpus), repoId="rc"))
        await app.runtime.run_until_idle()
        indexer = app.plane.indexer
        assert indexer is not None
        t0 = time.perf_counter()
        await indexer.run_until_idle()
        out["backfill_s"] = round(time.perf_counter() - t0, 1)
        out["passages"] = indexer.counters.passages_embedded
        retriever = app.plane.retriever
        for label in ("keyword", "vector", "hybrid"):
            ranks: list[int | None] = []
            for query, target in DEV_SET:
                if label == "keyword":
                    hits = await asyncio.to_thread(keyword_hits, app.views, "rc", query, 10)
                    paths = [h.path for h in hits]
                else:
                    retriever.hybrid = label == "hybrid"
                    answer = await retriever.search("rc", query, 10)
                    assert answer.mode == "semantic", answer.path
                    paths = []
                    for h in answer.hits:  # file and symbol hits both name a file
                        if h.entry.path and h.entry.path not in paths:
                            paths.append(h.entry.path)
                ranks.append(paths.index(target) + 1 if target in paths[:10] else None)
            out[label] = {
                "R@1": round(sum(1 for r in ranks if r and r <= 1) / len(ranks), 3),
                "R@5": round(sum(1 for r in ranks if r and r <= 5) / len(ranks), 3),
                "R@10": round(sum(1 for r in ranks if r) / len(ranks), 3),
                "MRR": round(sum(1 / r for r in ranks if r) / len(ranks), 3),
            }
    return out


def _peak_rss_mib() -> float:
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def symbol_phrases(views_db: Path, count: int, repo_id: str = "django") -> list[str]:
    """`count` seeded random symbols' names as the words an agent would type:
    `QuerySet.filter` -> "query set filter"."""
    import re
    import sqlite3

    db = sqlite3.connect(views_db)
    try:
        names = [
            r[0]
            for r in db.execute(
                "SELECT s.fq_name FROM symbols s JOIN symbol_files f ON f.id = s.file"
                " WHERE f.repo_id = ? ORDER BY s.fq_name",
                (repo_id,),
            )
        ]
    finally:
        db.close()
    phrases = []
    for fq in random.Random(7).sample(names, min(count, len(names))):
        tail = ".".join(fq.split(".")[-2:])
        words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", tail).replace("_", " ")
        phrases.append(" ".join(words.replace(".", " ").lower().split()))
    return phrases


def _pad_store(store: Any, pad_to: int) -> int:
    """Add seeded random unit vectors of another repository until the collection holds
    `pad_to` points, then rebuild the HNSW graph: the Django answers stay the same (the
    repository filter excludes them), the search runs over a graph of `pad_to` vectors."""
    import numpy as np

    from streams.stores.vectors import VectorPoint, point_id

    have = store.state().points
    if have >= pad_to:
        return 0
    rng = np.random.default_rng(11)
    data = rng.normal(size=(pad_to - have, store.space.dimension)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    payload = {"repo_id": "pad", "kind": "file"}
    for start in range(0, len(data), 1000):
        store.upsert(
            [
                VectorPoint(point_id("pad/file", i), data[i].tolist(), payload)
                for i in range(start, min(len(data), start + 1000))
            ]
        )
    store.build_index()
    return len(data)


async def _latency_async(data_dir: Path, queries: int = 200, pad_to: int = 0) -> dict[str, Any]:
    """Search latency per retrieval path, end to end through the retriever (query embedding,
    vector search, hydration from the views, fusion), on the store a `backfill` run left in
    `data_dir` (the Django corpus), optionally padded to `pad_to` points. Sequential, one
    client; medians are what one agent sees."""
    from query_api.retrieval.readiness import Readiness
    from query_api.retrieval.vector_plane import keyword_only_retriever
    from query_api.settings import Settings
    from repocontext.app import EmbeddedApp

    settings = Settings(data_dir=data_dir, embedder="local", embed_threads=2)
    phrases = symbol_phrases(data_dir / "views.db", queries)
    out: dict[str, Any] = {"queries": len(phrases)}
    async with EmbeddedApp(settings, watch=False) as app:
        retriever, store = app.plane.retriever, app.plane.store
        assert store is not None
        out["padded_with"] = _pad_store(store, pad_to) if pad_to else 0
        out["vectors"] = store.count(repo_id="django")
        out["collection_points"] = store.state().points
        out["ann"] = store.state().arm
        keyword = keyword_only_retriever(app.views, Readiness(embedder_bound=False))
        modes = {
            "keyword": (keyword, False, False),
            "approximate": (retriever, False, False),
            "exact": (retriever, True, False),
            "hybrid": (retriever, False, True),
        }
        for label, (r, exact, hybrid) in modes.items():
            r.exact_only, r.hybrid = exact, hybrid
            for q in phrases[:5]:  # warm caches and the encoder
                await r.search("django", q, 10)
            took, paths = [], set()
            for q in phrases:
                t0 = time.perf_counter()
                answer = await r.search("django", q, 10)
                took.append((time.perf_counter() - t0) * 1000)
                paths.add(answer.path.value)
            out[label] = {
                "p50_ms": round(pct(took, 0.5), 1),
                "p99_ms": round(pct(took, 0.99), 1),
                "paths": sorted(paths),
            }
        t0 = time.perf_counter()
        for q in phrases:
            app.plane.embedder.embed([q], "query")
        out["query_embedding_mean_ms"] = round((time.perf_counter() - t0) * 1000 / len(phrases), 1)
    return out


async def _backfill_async(threads: int = 2, queries: int = 200) -> dict[str, Any]:
    """Keyword-index the pinned Django corpus, then time the vector step's backfill of it
    (files and symbols, 2 embedder threads), build the HNSW graph, and measure recall@10 of
    approximate vs exact search on those real code embeddings. The queries are embedded
    phrases made from random symbols' names (`QuerySet.filter` -> "query set filter"), the
    shape of what an agent asks, searched with the production repository filter."""
    from query_api.settings import Settings, default_data_dir
    from repocontext.app import EmbeddedApp
    from tests.bench.indexing import fetch_corpus

    corpus = fetch_corpus(default_data_dir() / "bench")
    tmp = Path(tempfile.mkdtemp(prefix="vbackfill-"))
    settings = Settings(
        data_dir=tmp / "data", workspace_root=corpus.parent, embedder="local", embed_threads=threads
    )
    out: dict[str, Any] = {"corpus": corpus.name, "embed_threads": threads}
    out["data_dir"] = str(settings.data_dir)  # for `latency DIR` afterwards
    async with EmbeddedApp(settings, watch=False) as app:
        t0 = time.perf_counter()
        await app.start(resume=False)  # the keyword pipeline; watch=False: no vector task
        registration = await app.service.ensure_repo(str(corpus), "django", launch=False)
        await app.ingest.reconcile(registration, force_full=True)
        assert await app.runtime.wait_idle(600)
        out["files"] = app.views.file_count("django")
        out["keyword_index_s"] = round(time.perf_counter() - t0, 1)
        indexer = app.plane.indexer
        store = app.plane.store
        assert indexer is not None and store is not None
        indexer.ann_min_points = 10**12  # the build is timed on its own below
        t0 = time.perf_counter()
        last = t0
        while n := await indexer.run_once():
            if time.perf_counter() - last >= 30:
                last = time.perf_counter()
                print(
                    json.dumps(
                        {
                            "event": "backfill_progress",
                            "elapsed_s": round(last - t0),
                            "passages_embedded": indexer.counters.passages_embedded,
                            "records": n,
                        }
                    ),
                    file=sys.stderr,
                    flush=True,
                )
        backfill = time.perf_counter() - t0
        c = indexer.counters
        out["backfill_s"] = round(backfill, 1)
        out["passages_embedded"] = c.passages_embedded
        out["passages_reused"] = c.passages_reused
        out["passages_per_s"] = round(c.passages_embedded / backfill, 1)
        out["points"] = {
            "file": store.count(repo_id="django", kind="file"),
            "symbol": store.count(repo_id="django", kind="symbol"),
        }
        t0 = time.perf_counter()
        store.build_index()
        out["hnsw_build_s"] = round(time.perf_counter() - t0, 1)
        state = store.state()
        out["indexed_points"] = [state.indexed, state.points]
        phrases = symbol_phrases(settings.data_dir / "views.db", queries)
        embedded = app.plane.embedder.embed(phrases, "query")
        assert embedded.ok, embedded.error
        approx_ms, exact_ms, recall = [], [], []
        for vec in embedded.vectors:
            q = list(vec)
            t1 = time.perf_counter()
            a = store.search(q, 10, repo_id="django", exact=False)
            approx_ms.append((time.perf_counter() - t1) * 1000)
            t1 = time.perf_counter()
            e = store.search(q, 10, repo_id="django", exact=True)
            exact_ms.append((time.perf_counter() - t1) * 1000)
            recall.append(len({h.id for h in a} & {h.id for h in e}) / max(1, len(e)))
        out["queries"] = len(recall)
        out["recall_at_10_vs_exact"] = round(statistics.mean(recall), 4)
        out["recall_at_10_min"] = round(min(recall), 2)
        out["approximate_ms"] = {
            "p50": round(pct(approx_ms, 0.5), 2),
            "p99": round(pct(approx_ms, 0.99), 2),
        }
        out["exact_ms"] = {
            "p50": round(pct(exact_ms, 0.5), 2),
            "p99": round(pct(exact_ms, 0.99), 2),
        }
        out["example_queries"] = phrases[:5]
    out["peak_rss_mib"] = _peak_rss_mib()
    return out


def main() -> None:
    part = sys.argv[1] if len(sys.argv) > 1 else "embed"
    if part == "embed":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 32
        result = {"threads_1": bench_embed(1, n), "threads_2": bench_embed(2, n)}
    elif part == "search":
        result = bench_search(int(sys.argv[2]) if len(sys.argv) > 2 else 100_000)
    elif part == "windows":
        result = bench_windows()
    elif part == "backfill":
        result = asyncio.run(_backfill_async())
    elif part == "latency":
        pad_to = int(sys.argv[3]) if len(sys.argv) > 3 else 0
        result = asyncio.run(_latency_async(Path(sys.argv[2]), pad_to=pad_to))
    else:
        if len(sys.argv) > 2:
            window, overlap, most = (int(x) for x in sys.argv[2].split(","))
            set_geometry(window, overlap, most)
        result = asyncio.run(_devset_async())
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
