"""The users of a name no file declares, written only in string literals (a template's key
matched as `"elapsed_precise" => ...`), are the lines writing it in a string. QA on
console-rs/indicatif: `where is elapsed_precise used` ranked src/lib.rs, naming the key only in
its doc comments, first, pointed src/style.rs at `elapsed`'s lines, not at the match arm
rendering the key, and noted that none of the hits uses it; `where is elapsed_precise
handled` matched no users form and led with src/lib.rs too."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LIB = (
    "//! Templates name their keys in braces: `[{elapsed_precise}] {bar}`.\n"
    "//!\n"
    "//! * `elapsed_precise`: renders the elapsed time as `HH:MM:SS`.\n"
    "//! * `eta_precise`: the remaining time (like `elapsed_precise`).\n"
    "//! * `duration_precise`: the whole duration (like `elapsed_precise`).\n"
    "mod style;\npub use crate::style::Style;\n"
)
STYLE = (
    "use std::time::Duration;\n\n"
    "pub struct Style;\n\n"
    "impl Style {\n"
    "    /// The elapsed time of a bar, written for a key of its template.\n"
    "    pub fn render(&self, key: &str, elapsed: Duration) -> String {\n"
    "        match key {\n"
    '            "elapsed" => format!("{}s", elapsed.as_secs()),\n'
    '            "elapsed_precise" => format!("{:?}", elapsed),\n'
    "            _ => String::new(),\n"
    "        }\n"
    "    }\n"
    "}\n"
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": LIB,
    "src/style.rs": STYLE,
    "README.md": "# gauge\n\nUse `{elapsed_precise}` in a template for the elapsed time.\n",
}


async def test_a_key_written_in_strings_is_used_there(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="where is elapsed_precise used")
        )
        first = found.hits[0]
        assert first.entry.path == "src/style.rs", [h.entry.path for h in found.hits]
        assert first.snippet is not None and '"elapsed_precise" =>' in first.snippet, first
        assert not found.note or "none of these hits" not in found.note, found.note


def test_where_a_code_name_is_handled_asks_for_its_users() -> None:
    assert used_name("where is elapsed_precise handled") == "elapsed_precise"
    assert used_name("where is `Resize` handled?") == "Resize"
    assert used_name("where is the error handled") is None  # a word: a concept


async def test_a_key_handled_in_strings_is_used_there(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="where is elapsed_precise handled")
        )
        first = found.hits[0]
        assert first.entry.path == "src/style.rs", [h.entry.path for h in found.hits]
        assert first.snippet is not None and '"elapsed_precise" =>' in first.snippet, first
