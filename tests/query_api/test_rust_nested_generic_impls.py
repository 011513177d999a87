"""An `impl` whose generics nest (`impl<S, T: Iterator<Item = S>> ProgressIterator for T`, a
blanket implementation, or a trait's own `From<Vec<T>>`) implements its trait. QA on
console-rs/indicatif: `what implements ProgressIterator` ranked src/iter.rs, holding that
blanket implementation, fourth, below the files importing the trait, and noted that no hit
declares a type implementing it: the line was read up to the first `>` only."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import declares_subtype_of
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_an_impl_with_nested_generics_implements_its_trait() -> None:
    assert declares_subtype_of("ProgressIterator")(
        "impl<S, T: Iterator<Item = S>> ProgressIterator for T {"
    )
    assert declares_subtype_of("From")("impl<T: Into<Value>> From<Vec<T>> for Value {")
    assert declares_subtype_of("Sink")("impl<W: Write<Error = Box<dyn Error>>> Sink for W {}")
    assert not declares_subtype_of("Iterator")(
        "impl<S, T: Iterator<Item = S>> ProgressIterator for T {"
    )


FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod iter;\nmod bar;\nmod par;\npub use crate::iter::ProgressIterator;\n",
    "src/iter.rs": (
        "use crate::bar::Bar;\n\n"
        "/// Wraps an iterator with a progress bar.\n"
        "pub trait ProgressIterator\nwhere\n    Self: Sized + Iterator,\n{\n"
        "    fn progress(self) -> Bar;\n"
        "}\n\n"
        "impl<S, T: Iterator<Item = S>> ProgressIterator for T {\n"
        "    fn progress(self) -> Bar {\n        Bar::new()\n    }\n"
        "}\n"
    ),
    "src/bar.rs": (
        "use crate::ProgressIterator;\n\n"
        "pub struct Bar;\n\n"
        "impl Bar {\n    pub fn new() -> Self {\n        Bar\n    }\n}\n"
        "pub fn wrap(it: std::vec::IntoIter<u8>) -> Bar {\n    it.progress()\n}\n"
    ),
    "src/par.rs": (
        "use crate::ProgressIterator;\n\n"
        "pub fn each(v: Vec<u8>) {\n    let _ = v.into_iter().progress();\n}\n"
    ),
}


async def test_the_blanket_implementation_is_the_implementer(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="what implements ProgressIterator")
        )
        first = found.hits[0]
        assert first.entry.path == "src/iter.rs", [(h.entry.path, h.reasons) for h in found.hits]
        assert "uses:ProgressIterator" in first.reasons, first.reasons
        assert first.startLine == 11, first
        assert not found.note or "none of these hits" not in found.note, found.note
