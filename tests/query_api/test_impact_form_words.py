"""An impact question's words (`what breaks if I change X`, `the impact of renaming X`) are
no words to search or point hits with: QA on console-rs/indicatif, `what breaks if I change
ProgressStyle::format_state` pointed src/progress_bar.rs, src/multi.rs and
src/draw_target.rs at `break;` lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.form_words import keyword_text
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_the_impact_words_are_not_searched() -> None:
    text = keyword_text("what breaks if I change Style::format_state")
    assert "breaks" not in text and "change" not in text and "format_state" in text
    assert "renaming" not in keyword_text("the impact of renaming format_state")
    assert keyword_text("what calls change_state").endswith("change_state")


LOOP = (
    "/// Waits on the ticker until it is stopped.\npub fn wait(ticks: &[u8]) -> usize {\n"
    "    let mut n = 0;\n    for tick in ticks {\n        if *tick == 0 {\n            break;\n"
    "        }\n        n += 1;\n    }\n    n\n}\n\n"
    "/// The state of the loop.\npub struct LoopState {\n    pub n: usize,\n}\n"
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod style;\nmod ticker;\n",
    "src/style.rs": (
        "pub struct Style;\n\nimpl Style {\n"
        "    pub fn format_state(&self, state: usize) -> String {\n"
        "        state.to_string()\n    }\n}\n"
    ),
    "src/ticker.rs": LOOP,
}


async def test_no_hit_is_pointed_at_a_break(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        query = "what breaks if I change Style::format_state"
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        for hit in found.hits:
            assert "break;" not in (hit.snippet or ""), hit
