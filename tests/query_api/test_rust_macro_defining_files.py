"""A definition query for a Rust macro (`where is ffi_fn defined`) finds the file declaring
it: a `macro_rules!` is stored under its name with the bang (`ffi_fn!`, e48fbfb), so the
lookup by the name as written found no declaration and lifted nothing. QA on hyperium/hyper:
`where is ffi_fn defined` ranked src/ffi/macros.rs, its one declaration, 9th, below seven
files invoking `ffi_fn! { ... }`; `where is non_null defined` ranked it 3rd."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import defining_files
from query_api.retrieval.definition_sites import at_definitions
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import located_hits
from tests.streams.symbol_records import records

MACROS = "macro_rules! ffi_fn {\n    ($name:ident) => {\n        fn $name() {}\n    };\n}\n"
USER = "ffi_fn! { hyper_version }\n\npub fn version() {}\n"


def _defining(views: ViewStore, query: str) -> set[str]:
    return views.read(lambda conn: defining_files(conn, "r", query))


def test_a_macro_is_found_by_its_name_without_the_bang(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/ffi/macros.rs", MACROS), {})
        views.apply(records("src/ffi/mod.rs", USER), {})
        for query in ("where is ffi_fn defined", "where is the ffi_fn macro defined"):
            assert _defining(views, query) == {"src/ffi/macros.rs"}, query
        # a function is found as before
        assert _defining(views, "where is version defined") == {"src/ffi/mod.rs"}


LONG = (
    "macro_rules! ffi_fn {\n"
    + "".join(f"    // arm {n}\n" for n in range(3))
    + "    ($name:ident) => {\n        ffi_fn!($name ?= ());\n    };\n}\n"
)


def test_a_macros_hit_points_at_its_head_not_at_an_invocation_inside(tmp_path: Path) -> None:
    [shown] = located_hits(
        tmp_path, {"src/ffi/macros.rs": LONG}, "where is ffi_fn defined", at_definitions
    )
    assert shown.startLine == 1, shown
    assert shown.snippet is not None and shown.snippet.startswith("1: macro_rules! ffi_fn {")
