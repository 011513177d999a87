"""A request naming a Rust example by its name (`the hyper example`) ranks its file as source:
Cargo builds each `.rs` file directly in an examples folder as one example program, named by
its stem (`examples/hyper-echo.rs`, run as `--example hyper-echo`), so the file is the
program a folder is elsewhere (query_scope.in_named_example). QA on tokio-rs/tracing: `remove
env_logger from the hyper example` placed examples/examples/hyper-echo.rs in none of the first
ten, below library files' docs mentioning env_logger."""

from __future__ import annotations

from pathlib import Path

from processors.query_scope import in_named_example, named_examples
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding

FILES = {
    "src/filter.rs": (
        "//! Filters like env_logger's: the env_logger syntax, env_logger directives.\n"
        "/// Parses directives the way env_logger does (env_logger compatible).\n"
        "pub fn parse(spec: &str) -> Vec<String> { vec![spec.to_string()] }\n"
    ),
    "src/lib.rs": "//! Similar to env_logger; see env_logger.\npub mod filter;\n",
    "examples/examples/hyper-echo.rs": (
        "fn main() {\n    env_logger::init();\n    let server = serve();\n}\n"
        "fn serve() -> u8 { 0 }\n"
    ),
    "examples/examples/echo.rs": 'fn main() {\n    println!("echo");\n}\n',
}


def test_the_rust_example_a_request_names_ranks_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        query = "remove env_logger from the hyper example"
        paths = [hit.path for hit in keyword_hits(store, "r", query, 10)]
        assert paths[0] == "examples/examples/hyper-echo.rs", paths


def test_a_rust_file_in_an_examples_folder_is_the_program_its_stem_names() -> None:
    names = named_examples("remove env_logger from the hyper example")
    assert in_named_example("examples/examples/hyper-echo.rs", names) == "hyper-echo.rs"
    assert in_named_example("examples/hyper.rs", names) == "hyper.rs"
    assert in_named_example("examples/hyperlink.rs", names) is None
    assert in_named_example("examples/echo-hyper.rs", names) is None
    named = named_examples("chore: remove `env_logger` from `hyper` example")
    assert in_named_example("examples/examples/hyper-echo.rs", named) == "hyper-echo.rs"
    # a Go file is no program of its own there (a folder is)
    assert in_named_example("examples/hyper.go", names) is None
