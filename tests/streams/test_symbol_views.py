"""Symbol views: replace-per-file under any interleaving, the reverse index, BM25 columns,
and the `changed` walk (added/updated/removed, stat fast path, scope)."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.symbols.references import MAX_REFERENCES
from schemas import topics
from schemas.events import WalkFilters
from streams.sources.changes import IndexedFile, diff_against_index
from streams.sources.walker import FileSnapshot, read_file
from streams.stores import ViewStore
from streams.stores.views import symbols as views_symbols
from streams.stores.views.handlers import default_registry
from streams.stores.views.scan import symbol_entry, symbols_page
from streams.stores.views.search import keyword_hits
from streams.stores.views.symbol_tables import SOURCE_BITS, source_id, source_of
from streams.stores.views.symbols import SymbolViews
from tests.streams.symbol_records import records

BODIES = (
    "class Alpha:\n    def run(self):\n        return Beta()\n",
    "class Beta:\n    pass\n\ndef gamma():\n    return Alpha()\n",
    "from m.a import Alpha\n\ndef delta():\n    return Alpha()\n",
    "def broken(:\n",
    "",
)
PATHS = ("m/a.py", "m/b.py", "m/c.py")


def table(store: ViewStore, sql: str) -> set[tuple[object, ...]]:
    return {tuple(r) for r in store.read(lambda c: c.execute(sql).fetchall())}


ops = st.lists(
    st.tuples(
        st.sampled_from(PATHS),
        st.one_of(st.none(), st.sampled_from(BODIES)),
        st.booleans(),  # symbols before content?
    ),
    max_size=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops)
def test_views_hold_exactly_the_last_version_of_every_file(
    tmp_path: Path, steps: list[tuple[str, str | None, bool]]
) -> None:
    db = tmp_path / f"v{abs(hash(tuple(steps)))}.db"
    with (
        ViewStore(db, default_registry()) as live,
        ViewStore(tmp_path / f"f{db.name}", default_registry()) as fresh,
    ):
        last: dict[str, str | None] = {}
        for path, body, symbols_first in steps:
            recs = records(path, body)
            if symbols_first:
                recs.sort(key=lambda r: r[0] != topics.SYMBOLS.name)
            live.apply(recs, {})
            last[path] = body
        # a store built from only the surviving versions must look identical
        for path, body in last.items():
            if body is not None:
                fresh.apply(records(path, body), {})
        for sql in (
            "SELECT f.repo_id, f.path, s.fq_name, s.name, s.kind, s.start_line, s.end_line,"
            " s.digest, s.signature FROM symbols s JOIN symbol_files f ON f.id = s.file",
            "SELECT count(*) FROM symbol_files",
            # a file's keys by fq name and by simple name, and none left behind by a
            # replaced or deleted file (views/symbol_decls.py)
            "SELECT f.path, k.fq_name FROM symbol_keys k JOIN symbol_files f ON f.id = k.file",
            "SELECT f.path, n.name FROM symbol_names n JOIN symbol_files f ON f.id = n.file",
            "SELECT count(*) FROM symbol_keys",
            "SELECT count(*) FROM symbol_names",
            "SELECT f.repo_id, n.text, f.path, json_extract(unpack_text(f.sources),"
            " '$[' || (r.source & 8191) || ']'), q.text FROM xref_refs r"
            " JOIN xref_names n ON n.id = r.name LEFT JOIN xref_names q ON q.id = r.qualified"
            " JOIN xref_files f ON f.id = r.source >> 13",
            "SELECT f.path, unpack_text(f.sources) FROM xref_files f",
            "SELECT count(*) FROM xref_files",
            "SELECT f.repo_id, f.path, n.text FROM xref_imports i"
            " JOIN xref_files f ON f.id = i.file JOIN xref_names n ON n.id = i.module",
            "SELECT d.path, f.symbol_terms, f.signature_terms FROM symbol_fts f"
            " JOIN symbol_docs d ON d.id = f.rowid",
            "SELECT count(*) FROM symbol_fts",
            # the indexes themselves (external content: a 'delete' handed other terms than
            # the indexed ones would leave stale terms and counts behind)
            "SELECT term, doc, cnt FROM symbol_fts_vocab",
            "SELECT term, doc, cnt FROM content_fts_vocab",
        ):
            assert table(live, sql) == table(fresh, sql), sql


def test_reverse_index_and_symbol_search(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply(records("m/a.py", BODIES[0]) + records("m/c.py", BODIES[2]), {})
        views = SymbolViews(store)
        refs = views.references_to("r", ["Alpha"])
        assert [(r.path, r.symbol, r.qualified) for r in refs] == [
            ("m/c.py", "m.c.delta", "m.a.Alpha")
        ]
        hits = keyword_hits(store, "r", "alpha", 10)
        assert hits[0].path == "m/a.py"
        assert "symbol:m.a.Alpha" in hits[0].reasons
        # deleting the referencing file drops its reverse references
        store.apply(records("m/c.py", None), {})
        assert views.references_to("r", ["Alpha"]) == []
        assert views.symbols_of_file("r", "m/c.py") == []


def test_a_name_query_ranks_the_declaring_file_first(tmp_path: Path) -> None:
    methods = "".join(
        f"    def method_{i}(self, order_id: int) -> int:\n        return order_id + {i}\n\n"
        for i in range(30)
    )
    declaring = f'"""Orders."""\n\n\nclass OrderService:\n    """Places orders."""\n\n{methods}'
    mentioning = "from m.orders import OrderService\n\n\ndef checkout(svc: OrderService) -> None:\n"
    mentioning += "    svc.method_1(1)\n"
    batch = records("m/orders.py", declaring) + records("m/checkout.py", mentioning)
    for i in range(30):  # a corpus where `order` and `service` are rare words
        batch += records(f"m/util_{i}.py", f"def helper_{i}(x):\n    return x + {i}\n")
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply(batch, {})
        plain = keyword_hits(store, "r", "where is the order service used", 5)
        # BM25 alone: the short file that names OrderService in a signature wins
        assert [h.path for h in plain[:2]] == ["m/checkout.py", "m/orders.py"]
        for query in ("OrderService", "order service", "order_service"):
            hits = keyword_hits(store, "r", query, 5)
            assert [h.path for h in hits[:2]] == ["m/orders.py", "m/checkout.py"], query
            assert "symbol:m.orders.OrderService" in hits[0].reasons
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_the_named_class_leads_reasons_and_its_file_ranks_first(tmp_path: Path) -> None:
    """`QueryClient` and `class QueryClient` find the file declaring that class first, with
    `symbol:<its fq name>` first among the symbol reasons (not the file's other symbols
    that merely share a word with it), ahead of a file declaring `queryClient` (a spelling,
    not the name as written) and of short files that only repeat the words."""
    members = "".join(f"    def query_{i}(self) -> int:\n        return {i}\n\n" for i in range(25))
    declaring = (
        "class QueryCache:\n    pass\n\n\nclass ClientState:\n    pass\n\n\n"
        f"class QueryClient:\n{members}"
    )
    batch = records("m/client_core.py", declaring)
    batch += records(
        "m/bootstrap.py", "queryClient = make()\n\n\ndef query_client_state():\n    pass\n"
    )
    for i in range(12):  # `query` and `client` in every file: common words, BM25 ranks short ones
        batch += records(
            f"m/use_{i}.py", f"def query_client_{i}(client, query):\n    return 'class'\n"
        )
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply(batch, {})
        for query in ("QueryClient", "class QueryClient"):
            hits = keyword_hits(store, "r", query, 5)
            assert [h.path for h in hits[:2]] == ["m/client_core.py", "m/bootstrap.py"], query
            symbols = [r for r in hits[0].reasons if r.startswith("symbol:")]
            assert symbols[0] == "symbol:m.client_core.QueryClient", hits[0].reasons
            assert hits[1].reasons[0] == "symbol:m.bootstrap.queryClient", hits[1].reasons
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        # cut from BM25's pool (k=1 reads 3 files a table), it still has its score and reasons
        [top] = keyword_hits(store, "r", "class QueryClient", 1)
        assert top.path == "m/client_core.py"
        assert top.reasons[:2] == ("path-name-match", "symbol:m.client_core.QueryClient")
        assert top.reasons[-1] == "content-match"
        # a compound identifier inside a question names its declaration too
        asked = keyword_hits(store, "r", "where does QueryClient keep its cache", 3)
        assert asked[0].path == "m/client_core.py"


def test_name_lookups_are_index_range_reads_never_repository_scans(tmp_path: Path) -> None:
    """Without ANALYZE statistics SQLite preferred walking the repository's rows in primary-key
    or file order (to skip a sort) over the by-name index: every lookup of a rare name read
    the whole repository (7-10 ms each on Django). Each plan is pinned to its index."""
    batch = records("m/a.py", BODIES[0]) + records("m/c.py", BODIES[2])
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply(batch, {})
        views = SymbolViews(store)
        executed: list[str] = []

        def plans(conn: sqlite3.Connection) -> list[str]:
            conn.set_trace_callback(executed.append)
            try:
                views_symbols.symbols_named(conn, "r", ["Alpha"])
                views_symbols.references_to(conn, "r", ["Alpha", "run"], qualified_only=["run"])
            finally:
                conn.set_trace_callback(None)
            lookups = [
                sql for sql in executed if re.search(r"repo_id = 'r'\) AND \w*\.?name =", sql)
            ]
            return [
                " ".join(str(row[-1]) for row in conn.execute("EXPLAIN QUERY PLAN " + sql))
                for sql in lookups
            ]

        found = store.read(plans)
        assert len(found) == 3
        declared, *referenced = found
        # every declaration of the name (a few thousand at most), sorted by file path
        assert "SEARCH n USING PRIMARY KEY (repo=? AND name=?)" in declared, declared
        for plan in referenced:
            assert "USING PRIMARY KEY (repo=? AND name=?)" in plan, plan
            assert "TEMP B-TREE" not in plan, plan  # cut at the bound, then sorted in Python
        assert [r.path for r in views.references_to("r", ["Alpha"])] == ["m/c.py"]


def test_reference_names_are_kept_once_and_named_by_number(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        for path in ("m/a.py", "m/c.py", "m/d.py"):
            store.apply(records(path, BODIES[2] if path != "m/a.py" else BODIES[0]), {})
        kinds = table(store, "SELECT typeof(name), typeof(qualified) FROM xref_refs")
        assert kinds == {("integer", "integer")}, kinds  # 0: not qualified
        names = table(store, "SELECT text, count(*) FROM xref_names GROUP BY text")
        assert ("m.a.Alpha", 1) in names and all(n == 1 for _, n in names), names
        views = SymbolViews(store)
        refs = views.references_to("r", ["Alpha", "Beta"], qualified_only=["Alpha"])
        assert [(r.path, r.name, r.qualified) for r in refs] == [
            ("m/c.py", "Alpha", "m.a.Alpha"),
            ("m/d.py", "Alpha", "m.a.Alpha"),
            ("m/a.py", "Beta", None),
        ]


def test_references_and_imports_are_rows_of_numbers_with_no_second_copy(tmp_path: Path) -> None:
    """xref_refs is its own by-name index (no index repeats its ids), imports name their
    module by number, and replacing one of two files that reference the same names leaves
    the other's references as they were."""
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        for path in ("m/a.py", "m/c.py", "m/d.py"):
            store.apply(records(path, BODIES[2] if path != "m/a.py" else BODIES[0]), {})
        indexes = table(
            store, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'xref_refs'"
        )
        assert indexes == set(), indexes  # its key is the table itself (WITHOUT ROWID)
        assert table(store, "SELECT DISTINCT typeof(module) FROM xref_imports") == {("integer",)}
        store.apply(records("m/c.py", BODIES[1]), {})  # references Alpha unqualified now
        views = SymbolViews(store)
        refs = views.references_to("r", ["Alpha"])
        assert [(r.path, r.qualified) for r in refs] == [
            ("m/c.py", None),
            ("m/d.py", "m.a.Alpha"),
        ]
        assert views.importers_of("r", ["m.a"]) == ["m/d.py"]
        # `from m.a import Alpha` is stored as written, the name beside its module (the
        # resolver keeps the one that is a file: python_modules.imported_modules)
        assert views.imports_of_file("r", "m/d.py") == ["m.a", "m.a.Alpha"]


def test_every_kept_reference_of_a_file_has_a_source_id_of_its_own() -> None:
    """A source id is the file's id and the symbol's place among the file's referencing
    symbols, of which there are at most as many as the references the processor keeps."""
    assert MAX_REFERENCES < 1 << SOURCE_BITS
    assert source_of(source_id(12345, MAX_REFERENCES - 1)) == (12345, MAX_REFERENCES - 1)
    assert source_id(7, (1 << SOURCE_BITS) - 1) < source_id(8, 0)


def test_a_file_whose_references_were_cut_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    body = "def gen():\n" + "".join(f"    f{i}()\n" for i in range(5003)) + "\n"
    with (
        ViewStore(tmp_path / "v.db", default_registry()) as store,
        caplog.at_level(logging.WARNING),
    ):
        store.apply(records("m/generated.py", body), {})
        refs = table(
            store,
            "SELECT name FROM xref_refs JOIN xref_files f ON f.id = source >> 13"
            " WHERE f.path = 'm/generated.py'",
        )
    assert len(refs) == 5000
    assert "r/m/generated.py references 3 more distinct names than the 5000 kept" in caplog.text


def indexed_state(root: Path) -> dict[str, IndexedFile]:
    out = {}
    for path in sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()):
        snap = read_file(root, path)
        assert isinstance(snap, FileSnapshot)
        out[path] = IndexedFile(snap.digest, snap.size, snap.mtime_ns, observed_at=2e9)
    return out


def test_changed_walk(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    for name in ("src/a.py", "src/b.py", "src/c.py", "docs/x.md"):
        (root / name).write_text(f"# {name}\n")
    old = 1_000_000_000_000_000_000  # 2001: clearly before the indexing read (observed_at)
    for path in root.rglob("*.*"):
        os.utime(path, ns=(old, old))
    indexed = indexed_state(root)
    filters = WalkFilters()

    (root / "src/a.py").write_text("# changed\n")
    (root / "src/c.py").unlink()
    (root / "src/new.py").write_text("x = 1\n")
    # same size and mtime as indexed: the stat fast path vouches for it (not re-hashed)
    (root / "src/b.py").write_text("# src/B.py\n")
    os.utime(root / "src/b.py", ns=(old, old))

    got = diff_against_index(root, filters, indexed)
    assert (got.added, got.updated, got.removed) == (["src/new.py"], ["src/a.py"], ["src/c.py"])

    docs = {p: f for p, f in indexed.items() if p.startswith("docs/")}
    scoped = diff_against_index(root, filters, docs, scope="docs")
    assert (scoped.added, scoped.updated, scoped.removed) == ([], [], [])


def test_a_store_holding_every_kind_of_row_passes_sqlites_integrity_check(tmp_path: Path) -> None:
    """The app runs SQLite's check at every start and rebuilds views it reports damaged; a
    sound store must pass it (SQLite 3.40 misreported xref_imports with its repository
    column between the key's columns, so every start rebuilt the views)."""
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply(records("m/a.py", BODIES[0]) + records("m/c.py", BODIES[2]), {})
        assert table(store, "SELECT count(*) FROM xref_imports") != {(0,)}
        assert table(store, "PRAGMA integrity_check") == {("ok",)}
        store.integrity_check()


def test_a_name_lookup_decodes_each_declaring_file_once(tmp_path: Path) -> None:
    """The file graph asks for every name a file declares at once; a 1,800-function module
    used to be decoded once per name (20 s for one search on a two-module repository)."""
    body = "".join(f"def filler_{n}(value):\n    return value + {n}\n" for n in range(300))
    batch = records("m/many.py", body) + records("m/a.py", BODIES[0])
    names = [f"filler_{n}" for n in range(300)] + ["Alpha"]
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        store.apply(batch, {})
        executed: list[str] = []

        def lookup(conn: sqlite3.Connection) -> list[views_symbols.SymbolRow]:
            conn.set_trace_callback(executed.append)
            try:
                return views_symbols.symbols_named(conn, "r", names)
            finally:
                conn.set_trace_callback(None)

        found = store.read(lookup)
        assert [(s.path, s.name) for s in found] == [("m/many.py", n) for n in names[:-1]] + [
            ("m/a.py", "Alpha")
        ]
        decoded = [sql for sql in executed if sql.startswith("SELECT decls FROM symbol_files")]
        assert len(decoded) == 2  # one per declaring file, not one per name


def test_a_name_a_build_declares_too_reads_back_as_the_sources(tmp_path: Path) -> None:
    """QA on axios/axios, which commits its builds: recall of repo/src/symbol/buildFullPath
    and of AxiosHeaders.normalize read back as dist/axios.js's and dist/browser/axios.cjs's
    (the first file by path), so scan listed the bundle's and a memory link followed the
    bundle's drift, which changes only on a release. A generated file comes after the
    others; of those, the first by path."""
    body = "export default function buildFullPath(base, url) {\n  return base + url;\n}\n"
    with ViewStore(tmp_path / "v.db", default_registry()) as store:
        for path in ("dist/axios.js", "dist/browser/axios.cjs", "lib/core/buildFullPath.js"):
            store.apply(records(path, body.removeprefix("export default ")), {})
        found = store.read(lambda c: symbol_entry(c, "r", "buildFullPath"))
        assert found is not None and found.path == "lib/core/buildFullPath.js"
        page = store.read(lambda c: symbols_page(c, "r", None, 10))
        assert [(e.fq_name, e.path) for e in page] == [
            ("buildFullPath", "lib/core/buildFullPath.js")
        ]
        store.apply(records("lib/core/buildFullPath.js", None), {})  # the builds' alone
        found = store.read(lambda c: symbol_entry(c, "r", "buildFullPath"))
        assert found is not None and found.path == "dist/axios.js"
