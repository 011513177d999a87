"""Of a field and a method of one name (a Rust builder's `progress_chars` field and `pub fn
progress_chars`), both named by a hit's reasons, the method is the hit's line when they match
alike: it is what an agent calls. QA on console-rs/indicatif: `how do I customize the
progress chars` pointed src/style.rs at the field `progress_chars: Vec<Box<str>>` (line 25),
not at `pub fn progress_chars(mut self, s: &str) -> Self` (line 164)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

STYLE = (
    "pub struct Style {\n    tick_strings: Vec<String>,\n    progress_chars: Vec<String>,\n}\n\n"
    "impl Style {\n"
    + "".join(
        f"    /// Renders part {i} of the bar.\n    pub fn render_{i}(&self) -> usize {{\n"
        f"        self.tick_strings.len() + {i}\n    }}\n\n"
        for i in range(6)
    )
    + "    /// Sets the characters the bar is drawn with.\n"
    "    pub fn progress_chars(mut self, s: &str) -> Self {\n"
    "        self.progress_chars = s.chars().map(String::from).collect();\n        self\n    }\n"
    "}\n"
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod style;\npub use crate::style::Style;\n",
    "src/style.rs": STYLE,
}


async def test_the_method_is_the_hit_over_the_field(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="how do I customize the progress chars")
        )
        hit = next(h for h in found.hits if h.entry.path == "src/style.rs")
        lines = STYLE.split("\n")
        assert hit.startLine is not None and hit.endLine is not None
        shown = lines[hit.startLine - 1 : hit.endLine]
        assert any("pub fn progress_chars" in line for line in shown), (hit.startLine, hit.snippet)
