"""A search hit whose lines lie past a large file's stored text shows the heads of the
declarations there, from the symbols (query_api/retrieval/past_stored_heads.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.past_stored_heads import declarations_at, head_line
from schemas import tools as t
from streams.stores.views.symbol_spans import SymbolSpan
from tests.ingested import indexed_app
from tests.query_api.test_past_stored_outline import long_module as stored_outline_module

pytestmark = pytest.mark.anyio


def long_module() -> str:
    """Over 64 Ki characters of filler, then the class the query names (one method typed)."""
    return stored_outline_module().replace(
        "    def next_value(self):", "    def next_value(self, default=None):"
    )


async def test_a_hit_past_the_stored_text_shows_its_declaration_s_head(tmp_path: Path) -> None:
    """QA: jackson-core's `where is getNumberType defined` pointed JsonParser.java at line
    1800, past its stored 1,676 lines, and showed no snippet at all."""
    body = long_module()
    assert len(body) > 65_536
    files = {"reader.py": body, "other.py": "def read_all(source):\n    return list(source)\n"}
    at = body.split("\n").index("    def next_value(self, default=None):") + 1
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is next_value defined")
        )
    hit = next(h for h in answer.hits if h.entry.path == "reader.py")
    assert hit.startLine == at, (hit.startLine, at)
    assert hit.snippet is not None and hit.snippet.startswith(f"{at}: def next_value(self"), hit


def _span(fq: str, start: int, end: int) -> SymbolSpan:
    return SymbolSpan(fq, fq.rpartition(".")[2], start, end, "Method")


def test_the_declarations_starting_in_the_lines_else_the_innermost_holding_them() -> None:
    spans = [_span("Reader", 10, 90), _span("Reader.read", 20, 30), _span("Reader.close", 40, 44)]
    assert [s.fq_name for s in declarations_at(spans, 10, 25)] == ["Reader", "Reader.read"]
    assert [s.fq_name for s in declarations_at(spans, 42, 42)] == ["Reader.close"]
    assert declarations_at(spans, 95, 99) == []
    assert (
        head_line(20, "#[inline]\ndef read(self,\n    size: int):")
        == "20: def read(self, size: int):"
    )
