"""An answer whose shown hits hold none of the query's words but its stop words is asked
again without them, as an empty one is (test_stop_words_no_match.py). QA on rs/zerolog:
`where are benchmarks` listed ten files holding `where` and `are` (no lines, no note), and
README.md, the one file holding `benchmarks`, was left in the pool below them: the answer
was judged a match because a deeper hit held the word."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

_CODE = "// where the values are, where they are read: are they where they are?\n"
_LONG = "".join(f"Option {i} sets a colour, a border and a padding.\n" for i in range(120))


def _repo(root: Path) -> Path:
    for i in range(30):
        path = root / "pkg" / f"widget{i}.go"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"package pkg\n\n{_CODE}func Render{i}() int {{\n\treturn {i}\n}}\n")
    (root / "README.md").write_text("# pkg\n\nSee the benchmarks.\n\n" + _LONG)
    return root


async def test_hits_holding_only_stop_words_are_asked_again_without_them(
    tmp_path: Path,
) -> None:
    _repo(tmp_path / "ws" / "repo")
    async with indexed_app(tmp_path) as app:
        plain = await app.service.search(t.SearchArgs(repoId="repo", query="benchmarks"))
        assert [h.entry.path for h in plain.hits][:1] == ["README.md"]
        asked = t.SearchArgs(repoId="repo", query="where are benchmarks", k=5)
        worded = await app.service.search(asked)
        assert [h.entry.path for h in worded.hits][:1] == ["README.md"], worded.hits
        # the retry is judged on the ranking's head, not on what this `k` shows: k=50 (which
        # shows README.md among its hits) answers with the same first file as k=5
        wide = await app.service.search(asked.model_copy(update={"k": 50}))
        assert [h.entry.path for h in wide.hits][:1] == ["README.md"], wide.hits
