"""Symbol views: replace-per-file under any interleaving, the reverse index, BM25 columns,
and the `changed` walk (added/updated/removed, stat fast path, scope)."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas import topics
from schemas.events import WalkFilters
from streams.sources.changes import IndexedFile, diff_against_index
from streams.sources.walker import FileSnapshot, read_file
from streams.stores import ViewStore
from streams.stores.views_symbols import SymbolViews
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
    with ViewStore(db) as live, ViewStore(tmp_path / f"f{db.name}") as fresh:
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
            "SELECT * FROM symbols",
            "SELECT * FROM xref_refs",
            "SELECT * FROM xref_imports",
            "SELECT d.path, f.symbol_terms, f.signature_terms FROM symbol_fts f"
            " JOIN symbol_docs d ON d.id = f.rowid",
            "SELECT count(*) FROM symbol_fts",
        ):
            assert table(live, sql) == table(fresh, sql), sql


def test_reverse_index_and_symbol_search(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "v.db") as store:
        store.apply(records("m/a.py", BODIES[0]) + records("m/c.py", BODIES[2]), {})
        views = SymbolViews(store)
        refs = views.references_to("r", ["Alpha"])
        assert [(r.path, r.symbol, r.qualified) for r in refs] == [
            ("m/c.py", "m.c.delta", "m.a.Alpha")
        ]
        hits = store.keyword_search("r", "alpha", 10)
        assert hits[0].path == "m/a.py"
        assert "symbol:m.a.Alpha" in hits[0].reasons
        # deleting the referencing file drops its reverse references
        store.apply(records("m/c.py", None), {})
        assert views.references_to("r", ["Alpha"]) == []
        assert views.symbols_of_file("r", "m/c.py") == []


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
