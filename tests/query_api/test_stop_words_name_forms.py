"""A definition or users query of a name no file holds (`where is ZzNothingType defined`) is
answered with no hits and a note, not asked again without its stop words: its form's words are
not searched, so the retry searched `defined` and `calls`. QA on serde-rs/json: `where is
ZzNothingType defined` said no file holds it, then was asked again as `ZzNothingType defined`
and answered ten files holding `defined`, with no note."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/types.py": "# every name here is defined once\nclass Point:\n    x = 0\n",
    "src/calls.py": "# what calls what: defined below\ndef run():\n    return 1\n",
}


@pytest.mark.parametrize("query", ["where is ZzNothingType defined", "what calls zz_nothing_fn"])
async def test_a_name_no_file_holds_has_no_hits(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert found.hits == [], [(h.entry.path, h.reasons) for h in found.hits]
        assert found.note is not None and "contains" in found.note, found.note
