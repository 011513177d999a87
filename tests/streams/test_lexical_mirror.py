"""Search's in-memory postings (views/lexical.py) rank exactly as FTS5's bm25() in SQL, and stay
exact through edits, deletions, re-used row ids, bulk changes and a trimmed change log."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streams.stores import Record, ViewStore
from streams.stores.views import lexical_mirror
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import Mirrors, keyword_search
from tests.streams.symbol_records import records

WORDS = [
    "order", "service", "parse", "config", "http", "client", "cache", "retry", "the", "a",
    "token", "writer", "queue", "lock", "stream", "error", "request", "handler", "utf8", "path",
]  # fmt: skip
QUERIES = [
    "parse the config",
    "order service retry",
    "http client cache error",
    "OrderService",
    "the a",
    "handler for a request stream with a lock on the queue",
    "nothing matches zzz",
]
PATHS = [f"src/{d}/{n}.py" for d in ("core", "api", "util") for n in ("order", "client", "lock")]


def body(rng: random.Random) -> str:
    """A small Python module: a class or two with methods named from WORDS, and prose."""
    lines = []
    for _ in range(rng.randint(1, 3)):
        name = "".join(w.capitalize() for w in rng.sample(WORDS, 2))
        lines.append(f"class {name}:")
        for _ in range(rng.randint(1, 4)):
            lines.append(f"    def {'_'.join(rng.sample(WORDS, 2))}(self, {rng.choice(WORDS)}):")
            lines.append(
                f"        return {' + '.join(rng.choices(WORDS, k=3))}  # {rng.choice(WORDS)}"
            )
    lines.append("# " + " ".join(rng.choices(WORDS, k=rng.randint(0, 30))))
    return "\n".join(lines) + "\n"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ViewStore]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        yield views


def apply(store: ViewStore, batch: list[Record]) -> None:
    store.apply(batch, {})


def ranked(
    store: ViewStore, repo: str, query: str, fast: bool
) -> list[tuple[str, float, tuple[str, ...]]]:
    def run(conn: object) -> list[tuple[str, float, tuple[str, ...]]]:
        mirrors = Mirrors()
        if fast:
            content = store.mirror(CONTENT_FIELDS).current(conn)  # type: ignore[arg-type]
            symbols = store.mirror(SYMBOL_FIELDS).current(conn)  # type: ignore[arg-type]
            assert content is not None and symbols is not None, "the mirror should answer"
            mirrors = Mirrors(content, symbols)
        hits = keyword_search(conn, repo, query, 20, mirrors)  # type: ignore[arg-type]
        return [(h.path, round(h.score, 9), h.reasons) for h in hits]

    return store.read(run)


def assert_same_ranking(store: ViewStore, repos: tuple[str, ...] = ("r", "s")) -> None:
    for repo in repos:
        for query in QUERIES:
            assert ranked(store, repo, query, fast=True) == ranked(
                store, repo, query, fast=False
            ), (
                repo,
                query,
            )


def built(store: ViewStore) -> None:
    """Until both mirrors answer for the store's current state (a build may be needed)."""
    for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):
        mirror = store.mirror(spec)
        for _ in range(3):
            if store.read(mirror.current) is not None:
                break
            assert mirror.wait_built(30)
        assert store.read(mirror.current) is not None


ops = st.lists(
    st.tuples(
        st.sampled_from(("r", "s")),
        st.sampled_from(PATHS),
        st.one_of(st.none(), st.integers(0, 10_000)),  # None = delete, else the body's seed
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(first=ops, then=ops)
def test_the_mirror_ranks_as_sql_through_edits_and_deletions(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[tuple[str, str, int | None]],
    then: list[tuple[str, str, int | None]],
) -> None:
    with ViewStore(tmp_path_factory.mktemp("v") / "views.db", default_registry()) as store:
        for repo, path, seed in first:
            apply(store, records(path, None if seed is None else body(random.Random(seed)), repo))
        built(store)
        assert_same_ranking(store)
        for repo, path, seed in then:  # each change caught up inside the next query's read
            apply(store, records(path, None if seed is None else body(random.Random(seed)), repo))
            assert_same_ranking(store, (repo,))


def test_a_reused_row_id_is_read_again(store: ViewStore) -> None:
    """SQLite gives a new row the largest id + 1, so deleting the newest file and adding one
    re-uses its id: the mirror must see the new document, not keep the old one."""
    apply(store, records("a.py", "def parse_config(): pass\n"))
    apply(store, records("b.py", "def order_service(): pass\n"))
    built(store)
    apply(store, records("b.py", None))
    apply(store, records("c.py", "def http_client(): pass\n"))
    assert [p for p, _, _ in ranked(store, "r", "order service", fast=True)] == []
    assert [p for p, _, _ in ranked(store, "r", "http client", fast=True)] == ["c.py"]
    assert_same_ranking(store, ("r",))


def test_more_changes_than_a_query_may_apply_go_to_a_rebuild(
    store: ViewStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical_mirror, "CATCH_UP_LIMIT", 3)
    rng = random.Random(1)
    apply(store, records("first.py", body(rng)))
    built(store)
    apply(store, [rec for i in range(10) for rec in records(f"bulk/m{i}.py", body(rng))])
    mirror = store.mirror(CONTENT_FIELDS)
    assert store.read(mirror.current) is None  # too far behind: this query is answered in SQL
    built(store)
    assert store.read(mirror.current) is not None
    assert_same_ranking(store, ("r",))


def test_settling_starts_a_rebuild_now_and_says_until_it_is_done(
    store: ViewStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vector step asks before each embedding batch (vectors_step._after_keyword_builds):
    a mirror too far behind is rebuilt then, not under a search while the encoder child runs."""
    monkeypatch.setattr(lexical_mirror, "CATCH_UP_LIMIT", 3)
    rng = random.Random(1)
    assert not store.mirrors_settling()  # no search yet, no mirror: nothing to wait for
    apply(store, records("first.py", body(rng)))
    built(store)
    assert not store.mirrors_settling()
    apply(store, [rec for i in range(10) for rec in records(f"bulk/m{i}.py", body(rng))])
    assert store.mirrors_settling()  # too far behind: a rebuild started
    for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):
        assert store.mirror(spec).wait_built(30)
    assert not store.mirrors_settling()
    assert store.read(store.mirror(CONTENT_FIELDS).current) is not None


def test_a_change_log_trimmed_past_the_mirror_rebuilds_it(store: ViewStore) -> None:
    rng = random.Random(2)
    apply(store, records("a.py", body(rng)))
    built(store)
    apply(store, records("b.py", body(rng)))

    def trim(conn: object) -> None:
        conn.execute("DELETE FROM lexical_changes")  # type: ignore[attr-defined]

    store._write(trim)  # what the trim trigger does to a mirror that fell far behind
    apply(store, records("c.py", body(rng)))
    mirror = store.mirror(CONTENT_FIELDS)
    assert store.read(mirror.current) is None
    built(store)
    assert_same_ranking(store, ("r",))


def test_closing_the_store_stops_a_build(tmp_path: Path) -> None:
    views = ViewStore(tmp_path / "views.db", default_registry())
    rng = random.Random(3)
    apply(views, [rec for i in range(300) for rec in records(f"m{i}.py", body(rng))])
    mirror = views.mirror(CONTENT_FIELDS)
    views.read(mirror.current)  # starts the build
    views.close()  # returns once reads in flight (the build's) have stopped
    assert mirror.stopped(10)
    assert not mirror.building


def test_rebuilds_reuse_one_builder_connection(
    store: ViewStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each rebuild used to start a thread, and each thread opened a reader connection of its
    own (16 MiB of page cache) that stayed open until the store closed."""
    monkeypatch.setattr(lexical_mirror, "CATCH_UP_LIMIT", 1)
    rng = random.Random(4)
    apply(store, records("first.py", body(rng)))
    built(store)
    connections = len(store._reader_conns)
    for round_ in range(4):  # more changes than a query may apply: a rebuild each round
        apply(store, [rec for i in range(3) for rec in records(f"r{round_}/m{i}.py", body(rng))])
        built(store)
    assert len(store._reader_conns) == connections
    assert_same_ranking(store, ("r",))


def test_the_freshness_check_reads_the_change_log_by_its_key(store: ViewStore) -> None:
    """Every keyword query asks the change log for its first and last seq; a plan that scans
    the log costs a query time in proportion to the last 262,144 changes."""
    apply(store, records("a.py", "def parse_config():\n    return 1\n"))

    def plan(conn: object) -> list[str]:
        rows = conn.execute(f"EXPLAIN QUERY PLAN {lexical_mirror._SEQ_RANGE}")  # type: ignore[attr-defined]
        return [str(row[-1]) for row in rows]

    steps = store.read(plan)
    assert steps and not any(step.startswith("SCAN lexical_changes") for step in steps), steps


def test_queries_during_the_first_build_start_no_second_one(store: ViewStore) -> None:
    """A search asks for the postings until the first build lands: each query while the build
    runs must not queue another (u-boot built its content table twice on every start)."""
    for i, path in enumerate(PATHS):
        apply(store, records(path, body(random.Random(i))))
    reads: list[int] = []
    entered, gate = threading.Event(), threading.Event()

    def gated_read(fn: Callable[[sqlite3.Connection], None]) -> None:
        reads.append(1)
        entered.set()
        assert gate.wait(30.0), "the test never opened the gate"
        store.read(fn)

    mirror = lexical_mirror.LexicalMirror(CONTENT_FIELDS, gated_read)
    try:
        store.read(mirror.current)  # the first query starts the build
        assert entered.wait(30.0), "the build never started"
        for _ in range(3):  # queries while it runs answer from SQL
            assert store.read(mirror.current) is None
        gate.set()
        assert mirror.wait_built(30.0)
        assert len(reads) == 1
    finally:
        mirror.close()
