"""The declarations a search reads (their names and lines), cached per view store and dropped on
any write, and the `symbol:` reasons named late (only for the hits an answer keeps) equal to
those named at once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from streams.stores import ViewStore
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.file_cache import FileRowsCache, one_answer
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits, name_symbols_of
from streams.stores.views.symbol_spans import SymbolSpan, file_spans_cache, spans_of_files
from streams.stores.views.symbols import SymbolViews, file_symbols_cache, symbols_of_files
from tests.streams.symbol_records import records

BODIES = {
    "pkg/parser.py": "class ParserState:\n    def parse_flag(self):\n        return 1\n\n"
    "def parse_option():\n    return ParserState()\n",
    "pkg/flags.py": "def flag_value():\n    return 2\n\ndef other():\n    return flag_value()\n",
    "pkg/options.py": "class OptionParser:\n    def option_flag(self):\n        pass\n",
    "pkg/readme.py": "# parse the flag and the option\nVALUE = 3\n",
}


def indexed(tmp_path: Path) -> ViewStore:
    store = ViewStore(tmp_path / "views.db", default_registry())
    for path, body in BODIES.items():
        store.apply(records(path, body), {})
    return store


def test_a_files_declarations_are_read_again_after_any_write(tmp_path: Path) -> None:
    with indexed(tmp_path) as store:
        views = SymbolViews(store)
        before = [s.name for s in views.symbols_of_file("r", "pkg/options.py")]
        assert before == ["OptionParser", "option_flag"]
        assert views.symbols_of_file("r", "pkg/options.py") == views.symbols_of_file(
            "r", "pkg/options.py"
        )
        assert file_symbols_cache(store)._rows == 2  # held, not read again
        store.apply(records("pkg/options.py", "def renamed():\n    pass\n"), {})
        assert [s.name for s in views.symbols_of_file("r", "pkg/options.py")] == ["renamed"]
        store.apply(records("pkg/options.py", None), {})
        assert views.symbols_of_file("r", "pkg/options.py") == []


def test_a_callers_change_to_the_list_does_not_reach_the_cache(tmp_path: Path) -> None:
    with indexed(tmp_path) as store:
        views = SymbolViews(store)
        views.symbols_of_file("r", "pkg/flags.py").clear()
        assert [s.name for s in views.symbols_of_file("r", "pkg/flags.py")] == [
            "flag_value",
            "other",
        ]


def test_reasons_named_late_are_the_reasons_named_at_once(tmp_path: Path) -> None:
    with indexed(tmp_path) as store:
        for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):  # one scorer for both calls
            assert store.mirror(spec).wait_built(60)
        for query in ("parse the flag option", "ParserState parse_flag", "flag value", "other"):
            eager = keyword_hits(store, "r", query, 10)
            late = keyword_hits(store, "r", query, 10, name_symbols=False)
            assert any(hit.pending is not None for hit in late) or query == "other"
            named = name_symbols_of(store, late)
            assert [(h.path, h.score, h.reasons) for h in named] == [
                (h.path, h.score, h.reasons) for h in eager
            ]
            assert all(hit.pending is None for hit in named)


def test_a_files_spans_are_its_declarations_names_lines_and_kinds(tmp_path: Path) -> None:
    with indexed(tmp_path) as store:
        paths = sorted(BODIES)
        spans = store.read(lambda conn: spans_of_files(conn, "r", paths))
        rows = store.read(lambda conn: symbols_of_files(conn, "r", paths))
        assert spans == {
            path: [
                SymbolSpan(s.fq_name, s.name, s.start_line, s.end_line, s.kind) for s in declared
            ]
            for path, declared in rows.items()
        }
        cache = file_spans_cache(store)
        held = store.read(lambda conn: cache.of_files(conn, "r", ["pkg/options.py"]))
        assert [s.name for s in held["pkg/options.py"]] == ["OptionParser", "option_flag"]
        store.apply(records("pkg/options.py", "def renamed():\n    pass\n"), {})
        held = store.read(lambda conn: cache.of_files(conn, "r", ["pkg/options.py"]))
        assert [s.name for s in held["pkg/options.py"]] == ["renamed"]


def test_a_file_too_large_for_the_cache_is_read_once_per_answer(tmp_path: Path) -> None:
    """A file over a quarter of the bound is never kept (it would empty the cache), so every
    step of an answer read it again; within one_answer it is read once."""
    with indexed(tmp_path) as store:
        reads: list[tuple[str, ...]] = []

        def read(conn: Any, repo_id: str, paths: Sequence[str]) -> dict[str, list[SymbolSpan]]:
            reads.append(tuple(paths))
            return spans_of_files(conn, repo_id, paths)

        cache = FileRowsCache(store, read, max_rows=4)  # parser.py's 3 rows are over 4 // 4

        def spans(path: str) -> list[SymbolSpan]:
            return store.read(lambda conn: cache.of_files(conn, "r", [path])).get(path, [])

        for _ in range(2):
            assert len(spans("pkg/parser.py")) == 3
        assert len(reads) == 2  # not kept between answers
        with one_answer():
            first = spans("pkg/parser.py")
            assert spans("pkg/parser.py") == first
        assert len(reads) == 3
        with one_answer():  # a later answer reads it afresh
            spans("pkg/parser.py")
        assert len(reads) == 4
