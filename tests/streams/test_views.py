"""ViewStore: exactly-once apply, replace-per-file, repo removal/reset, reads, BM25 (spec §7)."""

from __future__ import annotations

import math
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.base import ProcessContext
from processors.content import ContentProcessor
from processors.structural import StructuralProcessor
from schemas import topics
from schemas.events import FileUpsert, RepoRegistration
from schemas.memory import MemoryEntry
from schemas.records import ContentRecord
from streams.errors import StoreError
from streams.stores import Record, ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.read import indexed_terms, prefix_successor
from streams.stores.views.schema import SCHEMA_VERSION, open_connection, terms_fingerprint
from streams.stores.views.search import SIZE_EXPONENT, SIZE_REFERENCE, keyword_hits

REPOS, STRUCTURE, CONTENT = topics.REPOS.name, topics.STRUCTURE.name, topics.CONTENT.name
MEMORY = topics.MEMORY.name


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ViewStore]:
    with ViewStore(tmp_path / "views.db", default_registry()) as s:
        yield s


def reg(repo: str, root: str = "/ws/x") -> Record:
    return (REPOS, repo, RepoRegistration(repo_id=repo, root=root, registered_at=1.0))


def file(repo: str, path: str, body: str = "", **kw: object) -> list[Record]:
    """The structure + content records the processors derive from one file upsert."""
    fields: dict[str, object] = {"repo_id": repo, "path": path, "digest": "xx128:deadbeef"}
    fields |= {"size": 12345, "mtime_ns": 1, "body": body, "observed_at": 10.0} | kw
    event = FileUpsert.model_validate(fields)
    emits = [
        *StructuralProcessor().process("f", None, event, ProcessContext()),
        *ContentProcessor().process("f", None, event, ProcessContext()),
    ]
    return [(e.topic, e.key, e.value) for e in emits]


def gone(repo: str, path: str) -> list[Record]:
    return [(STRUCTURE, f"{repo}/{path}", None), (CONTENT, f"{repo}/{path}", None)]


def fts_rows(store: ViewStore) -> int:
    """Documents the full-text index holds (its own count, not its content table's)."""
    sql = "SELECT count(*) FROM content_fts_docsize"
    return int(store.read(lambda c: c.execute(sql).fetchone()[0]))


def paths(store: ViewStore, repo: str, query: str, k: int = 10) -> list[str]:
    return [h.path for h in keyword_hits(store, repo, query, k)]


# -- apply, offsets, atomicity --------------------------------------------------------------


def test_apply_stores_rows_and_offsets_together(store: ViewStore) -> None:
    store.apply([reg("r"), *file("r", "a.py", "x = 1\n")], {(STRUCTURE, 0): 3, (CONTENT, 2): 7})
    assert store.committed("views", STRUCTURE, 0) == 3
    assert store.committed("views", CONTENT, 2) == 7
    assert store.committed("views", CONTENT, 0) == 0
    assert store.committed("other", STRUCTURE, 0) == 0
    assert store.total_applied() == 10
    row = store.get_file("r", "a.py")
    assert row is not None and (row.language, row.line_count, row.size) == ("python", 1, 12345)
    content = store.get_content("r", "a.py")
    assert content is not None and content.body == "x = 1\n"
    # A topic without a handler (a later issue's) is skipped, but its offset still advances.
    store.apply([("repocontext.future.v1", "k", None)], {("repocontext.future.v1", 0): 4})
    assert store.committed("views", "repocontext.future.v1", 0) == 4


def test_a_failing_record_rolls_back_rows_and_offsets(store: ViewStore) -> None:
    store.apply(file("r", "a.py", "alpha"), {(STRUCTURE, 0): 5})
    bad: Record = (STRUCTURE, "r/c.py", RepoRegistration(repo_id="r", registered_at=1.0))
    with pytest.raises(StoreError):
        store.apply([*gone("r", "a.py"), *file("r", "b.py", "beta"), bad], {(STRUCTURE, 0): 9})
    assert store.committed("views", STRUCTURE, 0) == 5
    assert store.get_file("r", "a.py") is not None and store.get_file("r", "b.py") is None
    assert paths(store, "r", "alpha beta") == ["a.py"]


def test_data_and_offsets_survive_reopening_but_a_foreign_schema_starts_anew(
    tmp_path: Path,
) -> None:
    with ViewStore(tmp_path / "v.db", default_registry()) as first:
        first.apply([reg("r"), *file("r", "a.py", "alpha")], {(CONTENT, 0): 2})
    with ViewStore(tmp_path / "v.db", default_registry()) as again:
        assert again.committed("views", CONTENT, 0) == 2
        assert paths(again, "r", "alpha") == ["a.py"]
    foreign = sqlite3.connect(tmp_path / "v.db")  # reads are read-only: write it from outside
    foreign.execute("PRAGMA user_version = 99")
    foreign.close()
    with ViewStore(tmp_path / "v.db", default_registry()) as rebuilt:  # the sink re-applies
        assert rebuilt.rebuilt_from == 99  # the log (tests/streams/test_views_rebuild.py)
        assert rebuilt.committed("views", CONTENT, 0) == 0 and paths(rebuilt, "r", "alpha") == []


# -- replace-per-file and tombstones ------------------------------------------------------


def test_a_new_version_replaces_the_old_one(store: ViewStore) -> None:
    store.apply(file("r", "a.py", "alpha"), {})
    store.apply(file("r", "a.py", "beta", digest="xx128:2"), {})
    assert paths(store, "r", "alpha") == [] and paths(store, "r", "beta") == ["a.py"]
    assert fts_rows(store) == 1
    row = store.get_file("r", "a.py")
    assert row is not None and row.digest == "xx128:2"


def test_terms_are_kept_once_packed_and_the_index_stays_whole(store: ViewStore) -> None:
    long_body = "".join(f"def handler_{n}(request):\n    return {n}\n" for n in range(300))
    store.apply([reg("r"), *file("r", "a.py", long_body), *file("r", "b.py", "x = 1\n")], {})
    store.apply([*file("r", "a.py", long_body + "def extra(): pass\n"), *gone("r", "b.py")], {})
    store.apply([*file("r", "c.py", "import zlib\n")], {})

    def check(conn: sqlite3.Connection) -> tuple[bool, tuple[str, str, int]]:
        conn.execute("INSERT INTO content_fts (content_fts) VALUES ('integrity-check')")
        # the deleted b.py's words are gone from the index itself, not only from `content`
        vocab = dict(conn.execute("SELECT term, doc FROM content_fts_vocab").fetchall())
        assert "b" not in vocab and vocab["handler"] == 1 and vocab["zlib"] == 1, vocab
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        packed = conn.execute(
            "SELECT typeof(body_terms), typeof(body), length(body) FROM content WHERE path = 'a.py'"
        ).fetchone()
        return "content_fts_content" in tables, (str(packed[0]), str(packed[1]), int(packed[2]))

    conn = open_connection(store.path)  # a writer: the integrity check is an FTS5 command
    try:
        no_copy, (terms_type, body_type, stored) = check(conn)
    finally:
        conn.close()
    assert not no_copy  # no second, internal copy of the terms
    # the terms are the body's own: not kept at all (body_terms_of tokenises the body)
    assert (terms_type, body_type) == ("null", "blob") and stored * 3 < len(long_body)
    content = store.get_content("r", "a.py")
    assert content is not None and content.body == long_body + "def extra(): pass\n"
    assert paths(store, "r", "extra handler") == ["a.py"]
    assert paths(store, "r", "zlib") == ["c.py"] and fts_rows(store) == 2


def content_record(repo: str, path: str, body: str, terms: str, truncated: bool) -> Record:
    """A content record as another producer (or an older tokenizer) may have written it."""
    record = ContentRecord(
        repo_id=repo,
        path=path,
        digest="xx128:1",
        language="python",
        body=body,
        truncated=truncated,
        path_terms=path.replace(".", " "),
        body_terms=terms,
    )
    return (CONTENT, f"{repo}/{path}", record)


def test_terms_other_than_the_bodys_own_are_kept_and_deleted_exactly(store: ViewStore) -> None:
    store.apply(
        [
            content_record("r", "long.py", "def head(): pass\n", "def head pass tail words", True),
            content_record("r", "other.py", "def own(): pass\n", "foreign tokens", False),
            content_record("r", "same.py", "def same(): pass\n", "def same pass", False),
        ],
        {},
    )
    kept = "SELECT path, typeof(body_terms) FROM content ORDER BY path"
    assert [tuple(r) for r in store.read(lambda c: c.execute(kept).fetchall())] == [
        ("long.py", "text"),  # the terms go past the body
        ("other.py", "text"),  # not what this tokenizer makes of the body
        ("same.py", "null"),
    ]
    assert paths(store, "r", "tail") == ["long.py"] and paths(store, "r", "foreign") == ["other.py"]
    assert store.read(lambda c: indexed_terms(c, "r", "same.py")) == frozenset(
        {"def", "same", "pass"}
    )
    store.apply([(CONTENT, f"r/{p}", None) for p in ("long.py", "other.py", "same.py")], {})
    conn = open_connection(store.path)  # a writer: the integrity check is an FTS5 command
    try:
        conn.execute("INSERT INTO content_fts (content_fts) VALUES ('integrity-check')")
        vocab = [r[0] for r in conn.execute("SELECT term FROM content_fts_vocab")]
    finally:
        conn.close()
    assert vocab == []  # every delete handed FTS5 the terms it had indexed


def test_a_record_without_terms_indexes_its_bodys_tokens_as_one_carrying_them(
    tmp_path: Path,
) -> None:
    # content.v1 leaves body_terms out when they are the body's tokens (processors/content.py)
    body = "def getUserName(user_id):\n    return HTTPServer.lookup(user_id)\n" * 20
    terms = "def get user name user id return http server lookup user id " * 20
    made = []
    vocab = "SELECT term, doc, cnt FROM content_fts_vocab ORDER BY term"
    for name, carried in (("carried", terms.strip()), ("derived", None)):
        _, _, made_record = content_record("r", "a.py", body, "", False)
        assert isinstance(made_record, ContentRecord)
        record = made_record.model_copy(update={"body_terms": carried})
        with ViewStore(tmp_path / f"{name}.db", default_registry()) as views:
            views.apply([(CONTENT, "r/a.py", record), *file("r", "b.py", "lookup")], {})
            made.append(
                (
                    [tuple(r) for r in views.read(lambda c: c.execute(vocab).fetchall())],
                    views.read(lambda c: indexed_terms(c, "r", "a.py")),
                    [(h.path, h.score) for h in keyword_hits(views, "r", "lookup user", 10)],
                )
            )
            views.apply([(CONTENT, "r/a.py", None), (CONTENT, "r/b.py", None)], {})
            assert views.read(lambda c: c.execute(vocab).fetchall()) == []  # deleted exactly
    assert made[0] == made[1] and made[0][2][0][0] == "a.py"


def test_path_terms_are_kept_only_when_not_the_paths_own(store: ViewStore) -> None:
    own = file("r", "src/OrderBook.py", "x = 1\n")  # the processor's terms: the path's own
    _, _, made = content_record("r", "odd.py", "y = 2\n", "y 2", False)
    assert isinstance(made, ContentRecord)
    odd = (CONTENT, "r/odd.py", made.model_copy(update={"path_terms": "foreign words"}))
    store.apply([*own, odd], {})
    kept = "SELECT path, path_terms FROM content ORDER BY path"
    assert [tuple(r) for r in store.read(lambda c: c.execute(kept).fetchall())] == [
        ("odd.py", "foreign words"),
        ("src/OrderBook.py", None),
    ]
    assert paths(store, "r", "order book") == ["src/OrderBook.py"]
    assert paths(store, "r", "foreign") == ["odd.py"] and paths(store, "r", "odd") == []
    store.apply([(CONTENT, "r/odd.py", None), (CONTENT, "r/src/OrderBook.py", None)], {})
    vocab = "SELECT count(*) FROM content_fts_vocab"
    assert store.read(lambda c: c.execute(vocab).fetchone()[0]) == 0  # deleted exactly


def test_a_first_build_is_compacted_once_and_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    bodies = {
        f"m{n}.py": f"def handler_{n}(request):\n    return {n}\n" * (n % 40) for n in range(300)
    }
    with ViewStore(path, default_registry()) as views:
        assert views.built_from_empty
        for name in sorted(bodies, key=lambda p: p[::-1]):  # rows out of key order
            views.apply([reg("r"), *file("r", name, bodies[name])], {})
        views.apply([r for n in range(0, 300, 3) for r in gone("r", f"m{n}.py")], {})
        before = (paths(views, "r", "handler_7 request", 50), views.content_count("r"))
        pages = "SELECT count(*) FROM dbstat"
        loose = views.read(lambda c: c.execute(pages).fetchone()[0])
        assert views.compact_first_build() and not views.built_from_empty
        assert not views.compact_first_build()  # once
        assert (paths(views, "r", "handler_7 request", 50), views.content_count("r")) == before
        assert views.read(lambda c: c.execute(pages).fetchone()[0]) < loose
        assert (tmp_path / "v.db-wal").stat().st_size == 0  # the rewrite left the WAL
        content = views.get_content("r", "m7.py")
        assert content is not None and content.body == bodies["m7.py"]
    with ViewStore(path, default_registry()) as reopened:
        assert not reopened.built_from_empty and not reopened.compact_first_build()


def test_views_whose_terms_another_tokenizer_derived_are_rebuilt(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "v.db", default_registry()) as first:
        first.apply([reg("r"), *file("r", "a.py", "alpha")], {(CONTENT, 0): 2})
    foreign = sqlite3.connect(tmp_path / "v.db")
    foreign.execute("UPDATE view_meta SET value = 'another tokenizer' WHERE name = 'terms'")
    foreign.commit()
    foreign.close()
    with ViewStore(tmp_path / "v.db", default_registry()) as rebuilt:  # the sink re-applies
        assert rebuilt.rebuilt_from == SCHEMA_VERSION and rebuilt.built_from_empty
        assert rebuilt.committed("views", CONTENT, 0) == 0 and paths(rebuilt, "r", "alpha") == []
        fingerprint = "SELECT value FROM view_meta WHERE name = 'terms'"
        assert rebuilt.read(lambda c: c.execute(fingerprint).fetchone()[0]) == terms_fingerprint()


def test_within_one_batch_the_last_record_of_a_key_wins(store: ViewStore) -> None:
    store.apply([*file("r", "a.py", "one"), *gone("r", "a.py"), *file("r", "b.py", "two")], {})
    store.apply([*gone("r", "b.py"), *file("r", "b.py", "three")], {})
    assert store.get_file("r", "a.py") is None and store.get_content("r", "a.py") is None
    assert paths(store, "r", "one two three") == ["b.py"]
    assert fts_rows(store) == 1


def test_tombstones_delete_the_file_from_every_tree(store: ViewStore) -> None:
    store.apply([*file("r", "a.py", "alpha"), *file("r", "b.py", "alpha")], {})
    store.apply(gone("r", "a.py"), {})
    assert store.get_file("r", "a.py") is None and store.get_content("r", "a.py") is None
    assert paths(store, "r", "alpha") == ["b.py"]
    assert fts_rows(store) == 1


def test_a_file_turned_binary_loses_its_content(store: ViewStore) -> None:
    store.apply(file("r", "a.dat", "alpha"), {})
    store.apply(file("r", "a.dat", "", binary=True), {})
    row = store.get_file("r", "a.dat")
    assert row is not None and row.binary and store.get_content("r", "a.dat") is None
    assert paths(store, "r", "alpha") == []


# -- repositories: marker, removal, reset ---------------------------------------------------


def test_repo_marker_follows_structure_records(store: ViewStore) -> None:
    store.apply(file("late", "a.py", observed_at=5.0, source_revision="c1"), {})
    store.apply([reg("late"), reg("r")], {})
    store.apply(file("r", "a.py", observed_at=7.0, source_revision="c2"), {})
    store.apply(file("r", "b.py", observed_at=9.0), {})
    rows = [
        (x.repo_id, x.last_ingested, x.indexed_commit, x.file_count) for x in store.list_repos()
    ]
    assert rows == [("late", 5.0, "c1", 1), ("r", 9.0, "c2", 2)]
    repo = store.get_repo("r")
    assert repo is not None and repo.root == "/ws/x" and repo.registration.repo_id == "r"


def note(key: str) -> Record:
    repo_id, topic, id_ = key.split("/")
    return (MEMORY, key, MemoryEntry(repo_id=repo_id, topic=topic, id=id_, created_at=1.0,
                                     updated_at=1.0))  # fmt: skip


@pytest.fixture
def memory_store(tmp_path: Path) -> Iterator[ViewStore]:
    """The default store with memory (streams/stores/views/memory.py: a non-code tree)."""
    with ViewStore(tmp_path / "m.db", default_registry()) as s:
        s.apply([reg("r"), reg("s"), *file("r", "a.py", "alpha", source_revision="c1")], {})
        s.apply([*file("r", "b.bin", binary=True), *file("s", "a.py", "alpha")], {})
        s.apply([note("r/t/1"), note("s/t/2")], {})
        yield s


def memory_keys(store: ViewStore) -> list[str]:
    sql = "SELECT repo_id || '/' || topic || '/' || id FROM memory ORDER BY 1"
    return [m[0] for m in store.read(lambda c: c.execute(sql).fetchall())]


def test_repo_tombstone_removes_every_tree_including_memory(memory_store: ViewStore) -> None:
    memory_store.apply([(REPOS, "r", None)], {})
    assert [repo.repo_id for repo in memory_store.list_repos()] == ["s"]
    assert memory_store.get_file("r", "a.py") is None
    assert paths(memory_store, "r", "alpha") == [] and paths(memory_store, "s", "alpha") == ["a.py"]
    assert memory_keys(memory_store) == ["s/t/2"]


def test_reset_clears_the_code_index_but_keeps_repo_and_memory(memory_store: ViewStore) -> None:
    # symbols/xrefs trees: registered by streams/stores/views/symbol_tables.py (empty here)
    no_symbols = {"symbols": 0, "symbol_files": 0, "xref_refs": 0}
    no_symbols["xref_files"] = 0
    no_symbols["xref_imports"] = 0
    no_symbols["symbol_docs"] = 0
    no_symbols["symbol_names"] = 0
    assert memory_store.reset_repo("r") == {"files": 2, "content": 1, **no_symbols}
    repo = memory_store.get_repo("r")
    assert repo is not None
    assert (repo.last_ingested, repo.indexed_commit, repo.file_count) == (None, None, 0)
    assert paths(memory_store, "r", "alpha") == [] and paths(memory_store, "s", "alpha") == ["a.py"]
    assert memory_keys(memory_store) == ["r/t/1", "s/t/2"]
    assert memory_store.reset_repo("nobody") == {"files": 0, "content": 0, **no_symbols}


# -- reads ----------------------------------------------------------------------------------


def test_files_under_pages_a_prefix_in_path_order(store: ViewStore) -> None:
    names = ["src/b.py", "src/a.py", "src/sub/c.py", "srcx/d.py", "doc/e.md", "src\U0010ffffz"]
    store.apply([rec for n in names for rec in file("r", n)], {})
    first = store.files_under("r", "src/", None, 2)
    assert [f.path for f in first] == ["src/a.py", "src/b.py"]
    assert [f.path for f in store.files_under("r", "src/", first[-1].path, 2)] == ["src/sub/c.py"]
    assert len(store.files_under("r", "", None, 100)) == 6
    assert [f.path for f in store.files_under("r", "src\U0010ffff")] == ["src\U0010ffffz"]
    assert store.files_under("other", "", None, 100) == []
    assert store.file_count("r") == 6 and store.get_repo("r") is None


def test_prefix_successor() -> None:
    assert prefix_successor("ab") == "ac"
    assert prefix_successor("a\U0010ffff") == "b"
    assert prefix_successor("\ud7ff") == "\ue000"
    assert prefix_successor("") is None and prefix_successor("\U0010ffff") is None


# -- BM25 keyword search (spec §3.4 / §7) ---------------------------------------------------


def corpus(store: ViewStore, files: dict[str, str], repo: str = "r") -> None:
    store.apply([rec for path, body in files.items() for rec in file(repo, path, body)], {})


def test_path_match_outranks_body_only_match(store: ViewStore) -> None:
    filler = {f"f{i}.txt": "unrelated" for i in range(4)}
    corpus(store, {**filler, "src/parser.txt": "alpha", "src/other.txt": "parser"})
    hits = keyword_hits(store, "r", "parser", 10)
    assert [(h.path, h.reasons) for h in hits] == [
        ("src/parser.txt", ("path-name-match",)),
        ("src/other.txt", ("content-match",)),
    ]
    assert hits[0].score > hits[1].score > 0
    assert hits[0].file is not None and hits[0].file.digest == "xx128:deadbeef"


def test_a_stop_word_in_a_path_is_no_path_match(store: ViewStore) -> None:
    """QA on spf13/pflag: `convert a flag to an int` gave string_to_slice.go `path-name-match`
    from `to` alone; a path that shares a word of substance still says so."""
    filler = {f"f{i}.txt": "unrelated" for i in range(4)}
    corpus(store, {**filler, "string_to_slice.go": "flag parse", "int_flag.go": "value"})
    hits = {h.path: h.reasons for h in keyword_hits(store, "r", "convert a flag to an int", 10)}
    assert hits["string_to_slice.go"][0] != "path-name-match", hits
    assert hits["int_flag.go"][0] == "path-name-match", hits


def test_a_query_asking_for_the_changelog_finds_it_by_its_name(store: ViewStore) -> None:
    """QA on pallets/jinja: `where is the changelog` found nothing, since CHANGES.rst holds no
    word `changelog`. The changelog at the root is called by what it is (else one a folder
    down); deeper ones, and files that merely hold the words, are not."""
    filler = {f"src/mod_{i}.py": "def parse():\n    return release\n" for i in range(4)}
    corpus(
        store,
        {
            **filler,
            "CHANGES.rst": "Version 3.1.5\n-------------\n\nReleased 2024-12-21\n",
            "docs/changelog.rst": ".. include:: ../CHANGES.rst\n",
            "vendor/lib/CHANGELOG.md": "## 0.1\n",
            "src/notes.py": "release notes are written by hand\n",
        },
    )
    for query in ("where is the changelog", "release notes for 3.1.5", "update the CHANGES file"):
        hits = keyword_hits(store, "r", query, 10)
        assert hits[0].path == "CHANGES.rst", (query, [h.path for h in hits])
        assert hits[0].reasons[0] == "path-name-match"
        assert "vendor/lib/CHANGELOG.md" not in [h.path for h in hits[:2]]
    assert "CHANGES.rst" not in paths(store, "r", "parse release")


def test_an_exact_path_or_file_name_ranks_its_file_first(store: ViewStore) -> None:
    """A path's words (src, pkg, app, py) fill other files' paths and bodies, so BM25 alone
    ranks a file repeating them above the long file the query names."""
    noisy = {f"src/pkg/mod_{i}.py": "from src.pkg import app\napp.run(app)\n" for i in range(6)}
    named = "def create():\n    return 1\n" + "value = compute(value)\n" * 200
    corpus(
        store,
        {**noisy, "src/pkg/app.py": named, "tests/app.py": "import app\n" * 40, "apps.md": "app"},
    )
    for query in ("src/pkg/app.py", "./src/pkg/app.py", " pkg/app.py ", "SRC/PKG/APP.PY"):
        hits = keyword_hits(store, "r", query, 10)
        assert hits[0].path == "src/pkg/app.py", (query, [h.path for h in hits])
        assert hits[0].reasons[0] == "path-name-match"
        assert "tests/app.py" not in [h.path for h in hits[:2]]  # not the path named
    by_name = keyword_hits(store, "r", "app.py", 10)
    assert {h.path for h in by_name[:2]} == {"src/pkg/app.py", "tests/app.py"}
    assert [h.score for h in by_name] == sorted((h.score for h in by_name), reverse=True)
    assert paths(store, "r", "app")[0] != "src/pkg/app.py"  # a bare word is not a file name


def test_idf_favours_the_rare_term(store: ViewStore) -> None:
    filler = {f"f{i}.txt": "other words" for i in range(6)}
    corpus(
        store,
        {**filler, "a.txt": "common", "b.txt": "rare", "c.txt": "common x", "d.txt": "common"},
    )
    hits = keyword_hits(store, "r", "common rare", 10)
    assert [h.path for h in hits] == ["b.txt", "a.txt", "d.txt", "c.txt"]
    assert hits[0].score > 1.5 * hits[1].score


def test_idf_is_the_references_and_never_vanishes(store: ViewStore) -> None:
    """IDF = ln(1 + (N - df + 0.5)/(df + 0.5)) (spec §3.4), not FTS5's ln((N - df + 0.5)/
    (df + 0.5)) floored at 1e-6: a word in every file still counts."""
    corpus(store, {"a.py": "alpha"})
    [hit] = keyword_hits(store, "r", "alpha", 10)
    # N = df = 1; one body occurrence in an average-length row: tf part 1 * 2.2 / 2.2 = 1,
    # times the one-line file's size prior
    size = ((1 + math.log1p(1)) / SIZE_REFERENCE) ** SIZE_EXPONENT
    assert hit.score == pytest.approx(math.log(1 + 0.5 / 1.5) * size)
    corpus(store, {"b.py": "alpha beta", "c.py": "alpha gamma"})
    scores = [h.score for h in keyword_hits(store, "r", "alpha", 10)]
    assert len(scores) == 3 and min(scores) > 0.05  # df = N: ln(1 + 0.5/3.5) = 0.13 x tf part


def test_term_frequency_saturates(store: ViewStore) -> None:
    filler = {f"f{i}.txt": "unrelated " * 100 for i in range(4)}
    corpus(store, {**filler, "once.txt": "token " + "pad " * 99, "many.txt": "token " * 100})
    scores = {h.path: h.score for h in keyword_hits(store, "r", "token", 10)}
    assert scores["once.txt"] < scores["many.txt"] < 100 * scores["once.txt"]


def test_compound_identifier_sub_token_matches(store: ViewStore) -> None:
    corpus(store, {"a.py": "def getUserName(): pass", "b.py": "def other(): pass"})
    hits = keyword_hits(store, "r", "user", 10)
    assert [(h.path, h.reasons) for h in hits] == [("a.py", ("content-match",))]
    assert paths(store, "r", "UserName") == ["a.py"]
    corpus(store, {"de.py": "größeWert = 1", "jp.md": "東京タワーの説明"})
    assert paths(store, "r", "GRÖSSE größe") == ["de.py"]  # no folding: grösse is another word
    assert paths(store, "r", "東京タワーの説明") == ["jp.md"]


def test_noise_fields_never_match(store: ViewStore) -> None:
    corpus(store, {"a.py": "print(1)"})
    for noise in ("deadbeef", "xx128", "12345"):  # digest, digest algorithm, size
        assert paths(store, "r", noise) == []


def test_non_matching_dropped_bounded_by_k_and_tie_broken_by_path(store: ViewStore) -> None:
    corpus(store, {f"{name}.txt": "shared body" for name in "edcbaghfij"} | {"n.md": "none"})
    assert paths(store, "r", "shared", 5) == ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]
    assert len(paths(store, "r", "shared", 1000)) == 10
    assert paths(store, "r", "shared", 0) == ["a.txt"]  # clamped to 1..100


@pytest.mark.parametrize("query", ["", "   ", "!!! --", "\"'"])
def test_empty_query_or_corpus_finds_nothing(store: ViewStore, query: str) -> None:
    assert keyword_hits(store, "r", "alpha", 10) == []
    corpus(store, {"a.py": "alpha"})
    assert keyword_hits(store, "r", query, 10) == []


def test_repositories_are_isolated(store: ViewStore) -> None:
    corpus(store, {"a.py": "alpha"}, repo="ra")
    corpus(store, {"a.py": "alpha beta", "b.py": "beta"}, repo="rb")
    assert [(h.repo_id, h.path) for h in keyword_hits(store, "ra", "alpha beta", 10)] == [
        ("ra", "a.py")
    ]
    assert paths(store, "ra", "beta") == []


def test_hits_carry_the_file_row_once_structure_arrives(store: ViewStore) -> None:
    records: list[Record] = [r for r in file("r", "a.py", "alpha") if r[0] == CONTENT]
    store.apply(records, {})
    [hit] = keyword_hits(store, "r", "alpha", 10)
    assert hit.file is None
    store.apply(file("r", "a.py", "alpha"), {})
    [hit] = keyword_hits(store, "r", "alpha", 10)
    assert hit.file is not None and hit.file.language == "python"


def test_language_column_is_searchable_without_a_reason(store: ViewStore) -> None:
    corpus(store, {"a.py": "x", "b.md": "y", "c.md": "z", "d.md": "w"})
    hits = keyword_hits(store, "r", "python", 10)
    assert [(h.path, h.reasons) for h in hits] == [("a.py", ())]


COMPACT_MEMORY = """
import os, resource, sqlite3, sys
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
path = sys.argv[1]
with ViewStore(path, default_registry()) as views:
    filler = sqlite3.connect(path)
    filler.execute("CREATE TABLE filler (blob BLOB)")
    for _ in range(64):  # 64 MiB the rewrite copies, one MiB in memory at a time
        filler.execute("INSERT INTO filler VALUES (?)", (os.urandom(1 << 20),))
        filler.commit()
    filler.close()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert views.compact_first_build()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_compacting_a_first_build_does_not_hold_the_copy_in_memory(tmp_path: Path) -> None:
    """VACUUM writes the whole file into a temporary database first: in memory (the
    connection's temp_store) that is the views' whole size at once. Peak memory is read in
    a child process of its own, with 64 MiB to copy."""
    child = subprocess.run(
        [sys.executable, "-c", COMPACT_MEMORY, str(tmp_path / "v.db")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert child.returncode == 0, child.stderr
    grown_mib = int(child.stdout.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux
    assert grown_mib < 32, grown_mib
