"""`what calls Other.name` on a file cut at its stored text points the hit at the declaration
past that text calling it, even when that declaration bears the same simple name
(query_api/retrieval/use_sites._past_stored_use): a delegating overload in another class
(`FileUtils.touch` calling `PathUtils.touch`) is a caller, not the declaration asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.use_sites import _past_stored_use
from schemas import tools as t
from streams.stores.views.symbol_spans import SymbolSpan
from streams.stores.views.symbols import ReferenceRow

PATH = "src/main/java/org/apache/commons/io/FileUtils.java"
SYMBOLS = [
    SymbolSpan("org.apache.commons.io.FileUtils", "FileUtils", 80, 3700, "Type"),
    SymbolSpan("org.apache.commons.io.FileUtils.forceMkdir", "forceMkdir", 400, 420, "Method"),
    SymbolSpan("org.apache.commons.io.FileUtils.touch", "touch", 3151, 3153, "Method"),
]


class _References:
    def __init__(self, rows: Sequence[ReferenceRow]) -> None:
        self.rows = list(rows)

    def references_to(self, repo_id: str, names: Sequence[str]) -> list[ReferenceRow]:
        return [row for row in self.rows if row.name in names]


class _Locator:
    def __init__(self, rows: Sequence[ReferenceRow]) -> None:
        self.symbols = _References(rows)


def _hit() -> t.SearchHit:
    entry = t.EntryView(
        key=f"repo/r/file/{PATH}",
        exists=True,
        kind="File",
        path=PATH,
        fields={"truncated": "true"},
    )
    return t.SearchHit(score=1.0, entry=entry, reasons=["uses:touch"], startLine=412, endLine=433)


def _located(rows: Sequence[ReferenceRow], asked: str) -> t.SearchHit:
    locator = cast(HitLocator, _Locator(rows))
    return _past_stored_use(locator, "r", _hit(), 1500, SYMBOLS, asked)


def test_a_same_named_method_of_another_class_past_the_stored_text_is_a_caller() -> None:
    """QA on apache/commons-io: `what calls PathUtils.touch` pointed FileUtils.java (172 KB,
    stored to about line 1500) at lines 412-433, which use no `touch`, while its only
    call, in `FileUtils.touch`, is at line 3152."""
    rows = [ReferenceRow(PATH, "org.apache.commons.io.FileUtils.touch", "touch", None)]
    found = _located(rows, "PathUtils.touch")
    assert (found.startLine, found.endLine) == (3151, 3153), found


def test_the_declaration_asked_for_is_still_no_caller_of_itself() -> None:
    rows = [ReferenceRow(PATH, "org.apache.commons.io.FileUtils.touch", "touch", None)]
    found = _located(rows, "FileUtils.touch")
    assert (found.startLine, found.endLine) == (412, 433), found
