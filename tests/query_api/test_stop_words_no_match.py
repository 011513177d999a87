"""A query's stop words do not turn an answer empty. QA on Textualize/rich: `promote the demo`
answered `hits: []` and "no file ... contains 'promote the demo'" while three docs hold
`demo` (`promote demo` listed them): the pool was filled by code files holding only `the`
(docs are pushed down, and `demo` asks for examples), and no hit held a word of the query
but a stop word. An answer left empty so is asked again without its stop words."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

_CODE = '"""Render the {i} widget to the screen: the width, the height and the style."""\n'
_PLAIN = "def size_{i}(width, height):\n    return width * height\n"
_LONG = "".join(f"Option {i} sets a colour, a border and a padding.\n" for i in range(120))


def _repo(root: Path) -> Path:
    for i in range(60):
        path = root / "pkg" / f"widget{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_CODE.format(i=i) + f"def render_{i}(the_width):\n    return the_width\n")
        (root / "pkg" / f"size{i}.py").write_text(_PLAIN.format(i=i))
    docs = root / "docs"
    docs.mkdir()
    (docs / "intro.rst").write_text("Demo\n====\n\n" + _LONG)
    return root


async def test_an_answer_holding_only_stop_words_is_asked_again_without_them(
    tmp_path: Path,
) -> None:
    _repo(tmp_path / "ws" / "repo")
    async with indexed_app(tmp_path) as app:
        plain = await app.service.search(t.SearchArgs(repoId="repo", query="promote demo"))
        assert [h.entry.path for h in plain.hits][:1] == ["docs/intro.rst"]
        worded = await app.service.search(t.SearchArgs(repoId="repo", query="promote the demo"))
        assert [h.entry.path for h in worded.hits][:1] == ["docs/intro.rst"], worded.note
        assert worded.note is None or "contains" not in worded.note
        # a query of stop words and unknown words is still no match
        none = await app.service.search(t.SearchArgs(repoId="repo", query="the zzquokka"))
        assert none.hits == [] and none.note is not None and "zzquokka" in none.note
