"""A hit's lines are found by what a change request is about, not by its verb
(query_api/retrieval/hit_details.py): on jinja, "Add support for namespaces in tuple
assignment" named parser.py's `add_data(self.parse_tuple(...))` line in `subparse` (`add`
and `tuple`: two words) where `parse_tuple`, which the hit's reasons name, holds only one."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PARSER = "\n".join(
    [
        "class Parser:",  # 1
        "    def subparse(self):",  # 2
        "        body = []",
        "        add_data = body.append",  # 4: add
        "        add_data(self.parse_tuple(with_condexpr=True))",  # 5: add, tuple
        "        return body",
        "",
        "    def parse_tuple(self, simplified=False):",  # 8: tuple
        '        """Parse a tuple of expressions."""',  # 9: tuple
        "        return simplified",
        "",
    ]
)


def _hit(path: str, reasons: list[str]) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=1.0, entry=entry, reasons=reasons)


def _lines(tmp_path: Path, query: str, reasons: list[str]) -> tuple[int | None, int | None]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/parser.py", PARSER), {})
        hit = _hit("src/parser.py", reasons)
        [shown] = enrich(HitLocator(views), "r", query, [hit], details=True).hits
        return shown.startLine, shown.endLine


def test_a_change_requests_verb_does_not_pick_the_hits_lines(tmp_path: Path) -> None:
    reasons = ["content-match", "symbol:src.parser.Parser.parse_tuple"]
    query = "Add support for namespaces in tuple assignment"
    assert _lines(tmp_path, query, reasons) == (8, 10)


def test_a_verb_alone_still_names_lines(tmp_path: Path) -> None:
    """A query that is nothing but a verb still finds the lines holding it."""
    assert _lines(tmp_path, "add", ["content-match"]) == (2, 6)
