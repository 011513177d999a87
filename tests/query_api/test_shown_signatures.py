"""An outline shows a Rust declaration's signature less the attributes that say nothing of
what it is or when it exists (`#[inline]`, `#[must_use]`, lint levels, `#[cfg_attr(docsrs,
...)]`), and keeps those that do (`#[cfg(...)]`, `#[derive(...)]`, `#[test]`). QA on
serde-rs/json: src/map.rs's outline repeated `#[inline] ` 53 times and a docs.rs attribute 9
times, beside the `#[cfg(feature = "preserve_order")]` saying the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.shown_signatures import shown_signature
from schemas.symbols import OutlineArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("signature", "shown"),
    [
        ("#[inline] pub fn new() -> Self", "pub fn new() -> Self"),
        (
            '#[cfg(feature = "x")] #[cfg_attr(docsrs, doc(cfg(feature = "x")))] #[inline] '
            "pub fn f(&self)",
            '#[cfg(feature = "x")] pub fn f(&self)',
        ),
        (
            '#[cfg_attr(docsrs, doc(cfg(any(feature = "std", feature = "alloc"))))] pub fn g()',
            "pub fn g()",
        ),
        ('#[must_use = "use it"] #[inline(always)] fn h()', "fn h()"),
        ("#[allow(clippy::too_many_lines)] #[test] fn t()", "#[test] fn t()"),
        ("#[derive(Clone, Debug)] pub struct A", "#[derive(Clone, Debug)] pub struct A"),
        ("#[cfg_attr(not(test), inline)] fn k()", "#[cfg_attr(not(test), inline)] fn k()"),
        ("@property def size(self)", "@property def size(self)"),
    ],
)
def test_the_attributes_saying_nothing_are_left_out(signature: str, shown: str) -> None:
    assert shown_signature(signature) == shown


FILES = {
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "pub struct Map;\n\nimpl Map {\n"
        "    #[inline]\n    pub fn new() -> Self {\n        Map\n    }\n\n"
        '    #[cfg(feature = "preserve_order")]\n'
        '    #[cfg_attr(docsrs, doc(cfg(feature = "preserve_order")))]\n'
        "    #[inline]\n    pub fn shift_insert(&mut self) {}\n}\n"
    ),
}


async def test_an_outline_shows_the_signatures_so(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "demo") as app:
        outlined = await app.services.symbols.outline(OutlineArgs(repoId="demo", path="src/lib.rs"))
        signatures = {s.fullyQualifiedName: s.signature for s in outlined.symbols}
        assert signatures["Map.new"] == "pub fn new() -> Self", signatures
        assert signatures["Map.shift_insert"] == (
            '#[cfg(feature = "preserve_order")] pub fn shift_insert(&mut self)'
        ), signatures
