"""`where is FromStr implemented for Value`, of a trait no file of the repository declares
(Rust's std `FromStr`, `Display`), finds the files implementing it for that type, points at
the `impl` line, and says nothing of the trait's declaration. QA on serde-rs/json: the name was
respelled as the declared `from_str` (so src/value/de.rs pointed at `fn from_str`, not at
`impl FromStr for Value`); `where is the FromStr trait implemented for Map` ranked
src/value/de.rs below the first ten; and each answer said `none of these hits declares
FromStr` above hits that were its implementations."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.implementations import implementation_line, implements_as_asked
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod de;\nmod value;\nmod map;\nmod number;\n",
    # `from_str`, a declared name alike but for case, in several files
    "src/de.rs": (
        "use crate::value::Value;\n\n"
        "pub fn from_str(text: &str) -> Result<Value, String> {\n"
        "    Ok(Value::Text(text.to_owned()))\n"
        "}\n\n"
        "pub struct Parser;\n\n"
        "impl Parser {\n"
        "    pub fn from_str(text: &str) -> Self {\n"
        "        let _ = text;\n"
        "        Parser\n"
        "    }\n"
        "}\n"
    ),
    "src/value.rs": (
        "use core::str::FromStr;\n\n"
        "pub enum Value {\n    Text(String),\n}\n\n"
        "pub fn from_str_lossy(text: &str) -> Value {\n"
        "    Value::Text(text.to_owned())\n"
        "}\n\n"
        "impl FromStr for Value {\n"
        "    type Err = String;\n\n"
        "    fn from_str(text: &str) -> Result<Value, String> {\n"
        "        crate::de::from_str(text)\n"
        "    }\n"
        "}\n"
    ),
    "src/map.rs": (
        "use core::str::FromStr;\n\n"
        "pub struct Map;\n\n"
        "impl FromStr for Map {\n"
        "    type Err = String;\n\n"
        "    fn from_str(text: &str) -> Result<Map, String> {\n"
        "        let _ = text;\n"
        "        Ok(Map)\n"
        "    }\n"
        "}\n"
    ),
    "src/number.rs": (
        "pub struct Number;\n\n"
        "impl Number {\n"
        "    /// Parses a value from a str, as from_str does for a map.\n"
        "    pub fn parse_value(text: &str) -> Option<Number> {\n"
        "        let _ = text;\n"
        "        Some(Number)\n"
        "    }\n"
        "}\n"
    ),
}


async def test_an_external_traits_implementation_is_found_for_the_type(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "demo") as app:
        for query, path, line in (
            ("where is FromStr implemented for Value", "src/value.rs", 11),
            ("where is the FromStr trait implemented for Map", "src/map.rs", 5),
            ("impl FromStr for Value", "src/value.rs", 11),  # an impl's head as the query
        ):
            found = await app.service.search(t.SearchArgs(repoId="demo", query=query))
            first = found.hits[0]
            assert first.entry.path == path, (query, [h.entry.path for h in found.hits])
            assert first.startLine == line, (query, first)
            assert not (found.note or "").startswith("none of these hits declares"), found.note


def test_the_type_a_query_makes_its_subject_is_the_type_asked_for() -> None:
    lines = [
        "impl<'a> Display for Type<'a> {",
        "}",
        "impl Display for Value {",
        "}",
    ]
    assert implementation_line(lines, "Display", "where does Value implement Display") == 3
    assert implementation_line(lines, "Display", "where is Display implemented for Value") == 3
    assert implementation_line(lines, "Display", "where is Display implemented") == 1
    assert not implements_as_asked(lines[:2], "Display", "where does Value implement Display")


def test_an_impl_heads_query_points_at_that_impl_only() -> None:
    lines = [
        "impl From<$ty> for Value {",
        "impl<T: Into<Value>> From<Vec<T>> for Value {",
        "impl<'a> Default for PrettyFormatter<'a> {",
    ]
    query = "impl<T: Into<Value>> From<Vec<T>> for Value"
    assert defined_name(query) == "From"
    assert implementation_line(lines, "From", query) == 2
    # a derived impl has no line: not another type's
    assert implementation_line(lines, "Default", "impl Default for CompactFormatter") is None
