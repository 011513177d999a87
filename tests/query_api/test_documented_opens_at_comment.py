"""`where is X documented` for code whose docs are its doc comment (a Rust crate's `///`
lines) opens the hit's range at that comment, as a request naming a comment does. QA on
console-rs/indicatif: `where is ProgressBar::println documented` pointed src/progress_bar.rs
at `pub fn println` (272-274), below the eleven lines documenting it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.doc_comments import asks_comment
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_a_docs_question_names_the_comment() -> None:
    assert asks_comment("where is ProgressBar::println documented")
    assert asks_comment("where is the documentation for println")
    assert not asks_comment("where is println defined")


BAR = (
    "pub struct Bar;\n\nimpl Bar {\n"
    + "".join(
        f"    /// Draws step {i}.\n    pub fn step_{i}(&self) -> usize {{\n        {i}\n    }}\n\n"
        for i in range(6)
    )
    + "    /// Prints a log line above the bar.\n    ///\n"
    "    /// If the bar is hidden, the line is not printed.\n"
    "    pub fn println(&self, msg: &str) -> usize {\n        msg.len()\n    }\n}\n"
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod bar;\npub use crate::bar::Bar;\n",
    "src/bar.rs": BAR,
}


async def test_the_range_opens_at_the_doc_comment(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="where is Bar::println documented")
        )
        hit = next(h for h in found.hits if h.entry.path == "src/bar.rs")
        lines = BAR.split("\n")
        assert hit.startLine is not None
        assert lines[hit.startLine - 1].strip() == "/// Prints a log line above the bar.", hit
