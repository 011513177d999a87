"""Hybrid search latency at 11k files: the whole service call with the real query encoder, the
in-process Qdrant (HNSW) holding as many passages as the repository really has, and keyword
search beside it in the same run.

    python -m tests.bench.hybrid_latency [--queries 200]

Embedding spring-framework's ~11k files takes hours on two cores, and latency does not depend on
what the stored vectors say, so the passages are the ones processors/vectors.py cuts from each
file (same count, same payloads) with seeded random unit vectors in place of their embeddings;
the query is embedded for real. Rankings from this run mean nothing; its times are what a user
of a fully embedded 11k-file repository waits. The keyword system is the one
`python -m tests.bench.search_latency` indexes (reused from the cache).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np

from processors.vectors import file_passages
from query_api.retrieval.ladder import Retriever
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_plane import keyword_only_retriever
from schemas import tools as t
from streams.embedders.local import LocalEmbedder
from streams.stores.vectors import EdgeVectorStore, VectorPoint, point_id
from tests.bench.localisation.cases import CASES_FILE, read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, materialise
from tests.bench.localisation.repos import DEFAULT_MIRRORS, require_mirror
from tests.bench.localisation.system import RepocontextSystem
from tests.bench.search_latency import PIN, pct

BATCH = 512
SEED = 7


def fill_store(system: RepocontextSystem, store: EdgeVectorStore) -> int:
    """Every file's passages with random unit vectors; returns how many points were stored."""
    views, repo_id = system.app.views, system.repo_id
    rng = np.random.default_rng(SEED)
    dimension = store.space.dimension
    batch: list[VectorPoint] = []
    stored = 0
    after: str | None = None
    while page := views.files_under(repo_id, "", after, 1000):
        after = page[-1].path
        for row in page:
            content = views.get_content(repo_id, row.path)
            if content is None:
                continue
            for passage in file_passages(repo_id, row.path, content.body):
                vector = rng.standard_normal(dimension).astype(np.float32)
                vector /= np.linalg.norm(vector)
                payload = {
                    "repo_id": repo_id,
                    "kind": passage.kind,
                    "source_key": passage.source_key,
                    "path": passage.path,
                    "idx": passage.idx,
                }
                batch.append(
                    VectorPoint(point_id(passage.source_key, passage.idx), vector.tolist(), payload)
                )
        if len(batch) >= BATCH:
            store.upsert(batch)
            stored += len(batch)
            batch = []
    store.upsert(batch)
    return stored + len(batch)


async def timed(queries: list[str], call: Callable[[str], Awaitable[object]]) -> list[float]:
    out: list[float] = []
    for query in queries:
        started = time.perf_counter()
        await call(query)
        out.append((time.perf_counter() - started) * 1000)
    return out


async def measure(corpus: Path, data_dir: Path, vectors_dir: Path, queries: list[str]) -> None:
    system = await RepocontextSystem.open(corpus, data_dir)
    embedder = LocalEmbedder(threads=1)
    space = embedder.space
    assert space is not None
    store = EdgeVectorStore(vectors_dir, space)
    try:
        points = store.state().points
        if points == 0:
            started = time.perf_counter()
            points = fill_store(system, store)
            print(f"stored {points} passages in {time.perf_counter() - started:.0f} s", flush=True)
        if store.state().indexed < points // 2:
            started = time.perf_counter()
            store.build_index()
            print(f"HNSW built in {time.perf_counter() - started:.0f} s", flush=True)
        state = store.state()
        print(f"{state.points} points, {state.indexed} in the HNSW index", flush=True)
        service = system.app.service
        keyword = keyword_only_retriever(system.app.views, Readiness(embedder_bound=False))
        hybrid = Retriever(
            system.app.views,
            embedder,
            store,
            Readiness(embedder_bound=True),
            hybrid=True,
            graphs=keyword.graphs,
        )
        await asyncio.to_thread(keyword.graphs.wait, system.repo_id, 900)
        embedder.embed(["warm the encoder"], "query")

        paths: dict[str, int] = {}

        async def with_retriever(retriever: Retriever, query: str) -> None:
            service.retriever = retriever
            args = t.SearchArgs(repoId=system.repo_id, query=query[:4096], k=10)
            path = (await service.search(args)).retrievalPath.value
            paths[path] = paths.get(path, 0) + 1

        rows = {
            "query embedding alone": await timed(
                queries, lambda q: asyncio.to_thread(embedder.embed, [q], "query")
            ),
            "keyword service search (k=10)": await timed(
                queries, lambda q: with_retriever(keyword, q)
            ),
            "hybrid service search (k=10)": await timed(
                queries, lambda q: with_retriever(hybrid, q)
            ),
        }
        print(f"\n{len(queries)} change requests over {corpus.name}")
        print("| in process | p50 ms | p95 ms | p99 ms |")
        print("|---|---|---|---|")
        for name, values in rows.items():
            cells = " | ".join(f"{pct(values, q):.1f}" for q in (0.5, 0.95, 0.99))
            print(f"| {name} | {cells} |")
        ratio = statistics.median(rows["hybrid service search (k=10)"]) / statistics.median(
            rows["keyword service search (k=10)"]
        )
        print(f"\nratio hybrid / keyword, p50: {ratio:.1f}x; answers by retrievalPath: {paths}")
    finally:
        store.close()
        embedder.close()
        await system.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    name = f"{PIN.slug}-{PIN.commit[:12]}"
    target = args.cache / "checkouts" / name / "spring-framework"
    corpus = materialise(require_mirror(PIN, args.mirrors), PIN.commit, target)
    queries = [case.query for case in read_cases(CASES_FILE)][: args.queries]
    systems = args.cache / "systems"
    asyncio.run(
        measure(corpus, systems / "latency" / name, systems / "latency-vectors" / name, queries)
    )


if __name__ == "__main__":
    main()
