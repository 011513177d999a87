"""A Rust compiler diagnostic's place (`--> examples/multi.rs:20:8`) and a panic's (`panicked
at src/style.rs:84:9`) are frames: their files rank first, at those lines. QA on
console-rs/indicatif: `error[E0599]: no method named `set_tab_width` found for struct
`MultiProgress` in the current scope` with its `--> examples/multi.rs:20:8` line left
examples/multi.rs out of the first ten, the place lying past the words read for paths. The
source line rustc quotes below a place (`419 |     self.push_line(...)`) finds its line in a
file of another version, as a Python traceback's quoted line does."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.rust_places import rust_frames
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

E0599 = (
    "error[E0599]: no method named `set_tab_width` found for struct `MultiProgress` in the "
    "current scope\n   --> examples/multi.rs:5:8\n    |\n5   |     multi.set_tab_width(4);\n"
    "    |           ^^^^^^^^^^^^^ method not found in `MultiProgress`"
)


def test_a_panic_and_a_diagnostic_write_their_places() -> None:
    assert rust_frames(E0599) == [("examples/multi.rs", 5, "multi.set_tab_width(4);")]
    assert rust_frames("thread 'main' panicked at src/style.rs:84:9:\nno template") == [
        ("src/style.rs", 84, "")
    ]
    old = "thread 'main' panicked at 'you must lock, sorry', src/bar.rs:194:17"
    assert rust_frames(old) == [("src/bar.rs", 194, "")]
    assert rust_frames("the --> arrow in src/a.rs:1:2 prose") == []


MULTI = (
    "/// Draws several bars at once.\npub struct MultiProgress {\n    bars: Vec<u8>,\n}\n\n"
    "impl MultiProgress {\n    pub fn new() -> Self {\n        MultiProgress { bars: vec![] }\n"
    "    }\n}\n"
)
BAR = "".join(
    f"/// Sets the tab width of bar {i}.\npub fn set_tab_width_{i}(width: usize) -> usize {{\n"
    f"    width + {i}\n}}\n\n"
    for i in range(6)
)
EXAMPLES = {
    f"examples/{name}.rs": (
        "use gauge::MultiProgress;\n\nfn main() {\n"
        "    let multi = MultiProgress::new();\n    drop(multi);\n}\n"
    )
    for name in ("yarnish", "finebars", "morebars", "cargo", "download", "single")
}
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod bar;\nmod multi;\npub use crate::multi::MultiProgress;\n",
    "src/multi.rs": MULTI,
    "src/bar.rs": BAR,
    **EXAMPLES,
    "examples/multi.rs": (
        "use gauge::MultiProgress;\n\nfn main() {\n    let multi = MultiProgress::new();\n"
        "    multi.set_tab_width(4);\n}\n"
    ),
}


async def test_the_diagnostics_file_is_first_at_its_line(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=E0599))
        paths = [h.entry.path for h in found.hits]
        assert paths[:2] == ["examples/multi.rs", "src/multi.rs"], paths
        assert found.hits[0].startLine is not None and found.hits[0].startLine <= 5, found.hits[0]


MOVED = (
    "warning: this expression creates a reference which is immediately dereferenced\n"
    "  --> examples/multi.rs:2:5\n   |\n2  |     multi.set_tab_width(4);\n"
    "   |     ^^^^^ help: change this"
)


async def test_the_quoted_line_is_found_where_it_moved(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=MOVED))
        first = found.hits[0]
        assert first.entry.path == "examples/multi.rs", [h.entry.path for h in found.hits]
        assert first.startLine is not None and first.endLine is not None
        assert first.startLine <= 5 <= first.endLine, first
        assert found.note is not None and "line 5 here" in found.note, found.note
