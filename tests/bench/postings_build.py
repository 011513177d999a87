"""Building search's in-memory postings from an existing views database, alone: time and memory.

    python -m tests.bench.postings_build VIEWS_DB [--queries N]

Opens VIEWS_DB read-only (e.g. the one `python -m tests.bench.search_latency --generated 100000`
left under ~/.cache/repocontext-bench/systems/latency/generated-100000/) and builds both tables'
postings the way the mirror's background thread does, printing per table the documents,
postings, vocabulary, wall and CPU seconds and the process's peak RSS before and after, then
the RSS once both are built. With
--queries N it then ranks the localisation benchmark's first N change requests with FTS5's
bm25() in SQL and with the postings, and counts the rankings that differ (they must not).
Reopening a 100k-file data directory through the service re-walks the corpus (minutes) and
re-derives whatever a newer processor version changed; this measures the build without that.
To compare with an older commit, run the same command from a `git archive` of it.
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import time
from pathlib import Path

from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.lexical import Snapshot
from streams.stores.views.lexical_mirror import LexicalMirror
from streams.stores.views.packing import unpack_text
from streams.stores.views.schema import body_terms_of
from streams.stores.views.search import Mirrors, keyword_search
from tests.bench.localisation.cases import CASES_FILE, read_cases


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mib() -> float:
    """The resident set now (what the built postings hold once the build's transients went)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def build(conn: sqlite3.Connection) -> dict[str, Snapshot]:
    built: dict[str, Snapshot] = {}
    for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):
        mirror = LexicalMirror(spec, lambda fn: None)  # only its build is used
        before, wall, cpu = peak_mib(), time.perf_counter(), time.process_time()
        _, snapshot = mirror._build_from(conn)
        base = snapshot.base
        print(
            f"{spec.fts}: {len(base.paths)} documents, {len(base.rows)} postings, "
            f"{len(base.vocab)} terms in {time.perf_counter() - wall:.1f} s "
            f"(CPU {time.process_time() - cpu:.1f} s); peak RSS {before:.0f} -> "
            f"{peak_mib():.0f} MiB",
            flush=True,
        )
        built[spec.fts] = snapshot
    return built


def compare(conn: sqlite3.Connection, built: dict[str, Snapshot], count: int) -> None:
    queries = [case.query for case in read_cases(CASES_FILE)][:count]
    mirrors = Mirrors(built[CONTENT_FIELDS.fts], built[SYMBOL_FIELDS.fts])
    repos = [str(r[0]) for r in conn.execute("SELECT DISTINCT repo_id FROM content")]
    differ = 0
    for repo in repos:
        for query in queries:
            sql = [hit.path for hit in keyword_search(conn, repo, query, 10, Mirrors())]
            fast = [hit.path for hit in keyword_search(conn, repo, query, 10, mirrors)]
            differ += sql != fast
    print(f"{len(queries)} queries x {len(repos)} repositories; rankings that differ: {differ}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("views_db", type=Path)
    parser.add_argument("--queries", type=int, default=0)
    args = parser.parse_args()
    conn = sqlite3.connect(f"file:{args.views_db}?mode=ro", uri=True, check_same_thread=False)
    conn.create_function("unpack_text", 1, unpack_text, deterministic=True)
    conn.create_function("body_terms_of", 2, body_terms_of, deterministic=True)
    started = time.perf_counter()
    built = build(conn)
    print(
        f"both tables in {time.perf_counter() - started:.1f} s; RSS now {rss_mib():.0f} MiB",
        flush=True,
    )
    if args.queries:
        compare(conn, built, args.queries)


if __name__ == "__main__":
    main()
