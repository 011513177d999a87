"""`tests for the Number type`: a one-word name written as one (a capital and its kind, or
backticks) is the name whose tests the query asks for, so the test files using it go above the
file declaring it. QA on serde-rs/json: src/number.rs ranked first and tests/test.rs, whose
tests call Number's methods, tenth; a one-word name was read as a plain word."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval import tests_first
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_a_one_word_name_written_as_a_name() -> None:
    assert tests_first.tested_name("tests for the Number type") == "Number"
    assert tests_first.tested_name("tests for `Value`") == "Value"
    assert tests_first.tested_name("tests for retry conditions") is None  # words
    assert tests_first.tested_name("tests for reach") is None


FILES = {
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod number;\npub mod value;\npub use number::Number;\n",
    "src/number.rs": (
        "/// A number type.\npub struct Number {\n    n: u64,\n}\n\n"
        "impl Number {\n    pub fn from_u64(n: u64) -> Number {\n        Number { n }\n    }\n\n"
        "    pub fn as_u64(&self) -> u64 {\n        self.n\n    }\n}\n"
    ),
    "src/value.rs": (
        "use crate::number::Number;\n\n/// A value holding a number type.\n"
        "pub enum Value {\n    Number(Number),\n    Null,\n}\n"
    ),
    "tests/test.rs": (
        "use demo::Number;\n\n#[test]\nfn test_roundtrip() {\n"
        "    assert_eq!(Number::from_u64(3).as_u64(), 3);\n}\n"
    ),
}


async def test_the_tests_using_the_type_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "demo") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="demo", query="tests for the Number type")
        )
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "tests/test.rs", [(h.entry.path, h.reasons) for h in found.hits]
