"""`what implements the Formatter trait` finds the file implementing it, its declaring file
too, and points at the `impl Formatter for ...` line. QA on serde-rs/json: the query matched
no users form (`trait` was no kind word); `what implements Formatter` placed nothing, as
src/ser.rs declares the trait and implements it (`impl Formatter for CompactFormatter {}`) and
the users leave the declaring file out; and the line read as implementing it was a type
parameter's bound (`struct NumberStrEmitter<..., F: 'a + Formatter>`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import declares_subtype_of, used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_a_trait_query_is_a_users_query_and_a_bound_implements_nothing() -> None:
    assert used_name("what implements the Formatter trait") == "Formatter"
    assert used_name("which types implement the Read trait") == "Read"
    declares = declares_subtype_of("Formatter")
    assert declares("impl<'a> Formatter for PrettyFormatter<'a> {")
    assert declares("struct Compact: Formatter {")  # Swift
    assert declares("class Pretty<T> : Base<T>, Formatter {")  # C#, Kotlin
    assert not declares("struct Emitter<'a, W: 'a + io::Write, F: 'a + Formatter>(&'a mut W);")


FILES = {
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod ser;\nmod value;\nmod error;\n",
    "src/ser.rs": (
        "pub trait Formatter {\n"
        "    fn write_null(&mut self) {}\n"
        "}\n\n"
        "struct Emitter<'a, F: 'a + Formatter>(&'a mut F);\n\n"
        "pub struct CompactFormatter;\n\n"
        "impl Formatter for CompactFormatter {}\n"
    ),
    "src/value.rs": (
        "use crate::ser::Formatter;\n\n"
        "pub fn write_value<F: Formatter>(formatter: &mut F) {\n"
        "    formatter.write_null();\n"
        "}\n"
    ),
    "src/error.rs": (
        "use core::fmt;\n\n"
        "pub struct Error;\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {\n"
        '        formatter.write_str("error")\n'
        "    }\n"
        "}\n"
    ),
}


async def test_the_declaring_file_implementing_its_trait_is_placed(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "demo") as app:
        for query in ("what implements the Formatter trait", "what implements Formatter"):
            found = await app.service.search(t.SearchArgs(repoId="demo", query=query))
            first = found.hits[0]
            assert first.entry.path == "src/ser.rs", [(h.entry.path, h.reasons) for h in found.hits]
            assert "uses:Formatter" in first.reasons, first.reasons
            assert first.startLine == 9, first
