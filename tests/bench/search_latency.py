"""Keyword search latency on a large repository: the in-memory postings against FTS5 in SQL.

    python -m tests.bench.search_latency                      # spring-framework, 11.4k files
    python -m tests.bench.search_latency --generated 100000   # a generated 100k-file corpus

The corpus is a pinned public checkout (spring-framework at PIN, extracted from the bench's git
mirror as the localisation benchmark does) or a generated tree; it is indexed once, keyword only,
into a cached data directory named after the build's versions (`cached_system`). The queries
are the localisation benchmark's change requests (real commit subjects and bodies, 20-60 words:
the long, common-word queries agents send). Each query is timed on both scorers in the same
process, alternating, so the ratio holds on a busy machine; the two rankings are compared too
(they must be equal). Also: the mirror's build time and the process's peak RSS before and after
it, and the service-level search (what one MCP call runs in process, hybrid off) at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.search import KeywordHit, Mirrors, keyword_hits, keyword_search
from tests.bench.localisation.cases import CASES_FILE, read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, materialise
from tests.bench.localisation.repos import DEFAULT_MIRRORS, PinnedRepo, require_mirror
from tests.bench.localisation.system import RepocontextSystem

PIN = PinnedRepo(
    "spring-projects/spring-framework", "java", "91eb42645e26a7ef9382b4a655bcefe5c8682fee", "tuning"
)
WORDS_SEED = 20261202


# Prints what a data directory's build is: the views' schema version and each processor's version
# (a step without one derives nothing worth re-deriving). Run in the serving tree, so an older
# tree given to a benchmark gets the cache its own build made.
STAMP_CODE = """
from streams.stores.views.schema import SCHEMA_VERSION
from streams.topology import topology
parts = [f"views{SCHEMA_VERSION}"]
for step in topology():
    version = getattr(step.processor, "version", None)
    if isinstance(version, int):
        parts.append(f"{step.step_id}{version}")
print("-".join(parts))
"""


def build_stamp(tree: Path) -> str:
    """`views11-content1-symbols28`-style versions of the build in `tree`."""
    found = subprocess.run(
        [sys.executable, "-c", STAMP_CODE],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        capture_output=True,
        text=True,
        check=True,
    )
    return found.stdout.strip()


def cached_system(cache: Path, name: str, tree: Path | None = None) -> Path:
    """The cached data directory of corpus `name` for the build in `tree` (this one by default).

    Its name carries the build's versions: a data directory made by a build with another views
    schema or processor version is re-derived when opened (every file: over an hour for the
    100k corpus on a loaded 2-core machine), which a latency benchmark must neither wait for
    nor time. Another build's directory is left alone (an older `--tree` may want it) and
    named, so its space can be reclaimed."""
    root = cache / "systems" / "latency"
    stamp = build_stamp((tree or Path(__file__).resolve().parents[2]).resolve())
    target = root / f"{name}.{stamp}"
    for other in sorted([root / name, *root.glob(f"{name}.*")]):
        if other.is_dir() and other != target:
            print(f"not used: {other} (another build's versions; this one is {stamp})")
    return target


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def generated_corpus(root: Path, files: int) -> Path:
    """`files` source files in nested packages, words drawn from a Zipf-like vocabulary (a few
    words everywhere, most rare), identifiers in camelCase and snake_case; made once."""
    done = root.with_name(root.name + ".done")
    if done.exists():
        return root
    rng = random.Random(WORDS_SEED)
    vocab = [f"w{n}" for n in range(50_000)]
    weights = [1.0 / (rank + 1) for rank in range(len(vocab))]
    for n in range(files):
        folder = root / f"mod{n % 97}" / f"pkg{n % 13}"
        folder.mkdir(parents=True, exist_ok=True)
        words = rng.choices(vocab, weights, k=rng.randint(40, 600))
        lines = [
            f"def {a}_{b}({c}):  # {' '.join(words[i : i + 8])}"
            for i, (a, b, c) in enumerate(zip(words[::3], words[1::3], words[2::3], strict=False))
        ]
        (folder / f"file_{n}.py").write_text("\n".join(lines) + "\n")
    done.touch()
    return root


def sql_search(conn: sqlite3.Connection, repo_id: str, query: str) -> list[KeywordHit]:
    """The reference scorer: every table in SQL, no in-memory postings."""
    return keyword_search(conn, repo_id, query, 10, Mirrors())


async def measure(corpus: Path, data_dir: Path, queries: list[str]) -> None:
    started = time.perf_counter()
    system = await RepocontextSystem.open(corpus, data_dir)
    print(f"indexed (or reopened) {corpus} in {time.perf_counter() - started:.1f} s", flush=True)
    try:
        views, repo_id = system.app.views, system.repo_id
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        started = time.perf_counter()
        mirrors = [views.mirror(CONTENT_FIELDS), views.mirror(SYMBOL_FIELDS)]
        for mirror in mirrors:
            while views.read(mirror.current) is None:
                mirror.wait_built(600)
        build_s = time.perf_counter() - started
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"in-memory postings built in {build_s:.1f} s; "
            f"peak RSS {rss_before:.0f} -> {rss_after:.0f} MiB",
            flush=True,
        )
        sql: list[float] = []
        fast: list[float] = []
        differ = 0
        for query in queries:
            t0 = time.perf_counter()
            slow_hits = views.read(partial(sql_search, repo_id=repo_id, query=query))
            t1 = time.perf_counter()
            fast_hits = keyword_hits(views, repo_id, query, 10)
            t2 = time.perf_counter()
            sql.append((t1 - t0) * 1000)
            fast.append((t2 - t1) * 1000)
            differ += [h.path for h in slow_hits] != [h.path for h in fast_hits]
        service: list[float] = []
        for query in queries:
            t0 = time.perf_counter()
            await system.search(query, 10)
            service.append((time.perf_counter() - t0) * 1000)
        print(f"\n{len(queries)} queries; rankings that differ between the scorers: {differ}")
        print("| keyword search, in process | p50 ms | p95 ms | p99 ms |")
        print("|---|---|---|---|")
        for name, values in (
            ("FTS5 bm25() in SQL", sql),
            ("in-memory postings", fast),
            ("service search (k=10)", service),
        ):
            cells = " | ".join(f"{pct(values, q):.1f}" for q in (0.5, 0.95, 0.99))
            print(f"| {name} | {cells} |")
        print(
            f"\nratio SQL / in-memory, p50: {statistics.median(sql) / statistics.median(fast):.1f}x"
        )
    finally:
        await system.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--generated", type=int, default=0, help="N generated files instead of spring"
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    if args.generated:
        name = f"generated-{args.generated}"
        corpus = generated_corpus(args.cache / "checkouts" / name / "corpus", args.generated)
    else:
        name = f"{PIN.slug}-{PIN.commit[:12]}"
        target = args.cache / "checkouts" / name / "spring-framework"
        corpus = materialise(require_mirror(PIN, args.mirrors), PIN.commit, target)
    queries = [case.query for case in read_cases(CASES_FILE)][: args.queries]
    asyncio.run(measure(corpus, cached_system(args.cache, name), queries))


if __name__ == "__main__":
    main()
