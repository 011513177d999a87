"""A definition or users query for a name written as code that no file declares, one edit
away from the one declared name alike (`ProgresBar` for `ProgressBar`), asks for that name,
and the answer says it read it so. QA on console-rs/indicatif: `where is ProgresBar defined`
answered iter.rs's `pub progress: ProgressBar` first and src/progress_bar.rs seventh, noting
that no hit declares `ProgresBar`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.typo_names import one_edit_apart
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_one_edit_apart() -> None:
    assert one_edit_apart("ProgresBar", "ProgressBar")  # a letter left out
    assert one_edit_apart("ProgressBra", "ProgressBar")  # two swapped
    assert one_edit_apart("ProgressBsr", "ProgressBar")  # one replaced
    assert not one_edit_apart("ProgressBar", "ProgressBar")
    assert not one_edit_apart("ProgBar", "ProgressBar")


USERS = "".join(
    f"use crate::bar::ProgressBar;\n\n/// Holds a progress bar {i}.\npub struct Holder{i} {{\n"
    f"    pub progress: ProgressBar,\n}}\n"
    for i in range(1)
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod bar;\nmod holders;\nmod other;\n",
    "src/bar.rs": "/// A progress bar.\npub struct ProgressBar {\n    pos: u64,\n}\n",
    "src/holders.rs": USERS,
    "src/other.rs": "/// A progress grid.\npub struct ProgressGrid {\n    pos: u64,\n}\n",
}


async def test_a_name_one_edit_away_is_read_as_declared(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="where is ProgresBar defined")
        )
        assert found.hits[0].entry.path == "src/bar.rs", [h.entry.path for h in found.hits]
        assert found.note is not None and "ProgressBar" in found.note, found.note
        assert "none of these hits declares" not in found.note, found.note
