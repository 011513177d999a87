"""A Rust compiler error naming the type a member was looked up in (`error[E0599]: no method
named `with_tab_width` found for struct `ProgressBarIter` in the current scope`, `no field `x`
on type `Gauge``) asks for that type's declaration: the member is added there. QA on
console-rs/indicatif: that paste ranked src/progress_bar.rs, declaring another type's
`with_tab_width`, first, and pointed src/iter.rs, declaring ProgressBarIter, at `fn
try_progress`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import asked_kinds, defined_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

E0599 = (
    "error[E0599]: no method named `with_tab_width` found for struct `ProgressBarIter` "
    "in the current scope"
)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        (E0599, "ProgressBarIter"),
        (
            "error[E0599]: no method named `progress` found for struct "
            "`ProgressBarIter<std::slice::Iter<'_, i32>>` in the current scope",
            "ProgressBarIter",
        ),
        ("error[E0609]: no field `tab_width` on type `&mut gauge::BarState`", "BarState"),
        (
            "error[E0599]: no variant or associated item named `Hidden` found for enum "
            "`TargetKind` in the current scope",
            "TargetKind",
        ),
    ],
)
def test_a_rustc_member_error_asks_for_the_type(query: str, name: str) -> None:
    assert defined_name(query) == name


def test_the_kind_asked_is_the_types() -> None:
    assert asked_kinds(E0599) == frozenset({"Type"})


ITER = (
    "use crate::bar::Bar;\n\n"
    "/// Wraps an iterator with a progress bar.\n"
    "pub trait ProgressIterator: Sized {\n    fn progress(self) -> ProgressBarIter<Self>;\n}\n\n"
    "impl<T: Iterator> ProgressIterator for T {\n"
    "    fn progress(self) -> ProgressBarIter<Self> {\n"
    "        ProgressBarIter { it: self, bar: Bar::new() }\n    }\n}\n\n"
    "/// An iterator advancing a progress bar as it goes.\n"
    "pub struct ProgressBarIter<T> {\n    pub it: T,\n    pub bar: Bar,\n}\n\n"
    "impl<T> ProgressBarIter<T> {\n"
    "    pub fn with_message(mut self, message: &str) -> Self {\n"
    "        self.bar = self.bar.with_message(message);\n        self\n    }\n}\n"
)
BAR = (
    "pub struct Bar {\n    tab_width: usize,\n    message: String,\n}\n\n"
    "impl Bar {\n"
    "    pub fn new() -> Self {\n        Bar { tab_width: 8, message: String::new() }\n    }\n\n"
    "    /// The bar with the tab width its messages expand tabs to.\n"
    "    pub fn with_tab_width(mut self, tab_width: usize) -> Self {\n"
    "        self.tab_width = tab_width;\n        self\n    }\n\n"
    "    pub fn with_message(mut self, message: &str) -> Self {\n"
    "        self.message = message.replace('\\t', &\" \".repeat(self.tab_width));\n"
    "        self\n    }\n}\n"
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod bar;\nmod iter;\npub use crate::iter::ProgressBarIter;\n",
    "src/iter.rs": ITER,
    "src/bar.rs": BAR,
}


async def test_the_file_declaring_the_type_is_first_at_it(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=E0599))
        first = found.hits[0]
        assert first.entry.path == "src/iter.rs", [h.entry.path for h in found.hits]
        assert first.startLine is not None and first.endLine is not None
        lines = ITER.split("\n")
        shown = lines[first.startLine - 1 : first.endLine]
        assert "pub struct ProgressBarIter<T> {" in shown, (first.startLine, first.snippet)
