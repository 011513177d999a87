"""Where a hit's lines are (hit_details.locate_in_file): among the lines that match the query
best, the first line of a declaration wins over a comment that names it too."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, query_terms
from streams.stores.views.symbols import SymbolRow

BODY = "\n".join(
    [
        "//! Walking: see WalkBuilder.",  # 1: names it, outside any declaration
        "use std::path::Path;",
        "",
        "/// Build a walk; WalkBuilder holds its options.",  # 4: the doc comment above it
        "pub struct WalkBuilder {",  # 5: the declaration
        "    max_depth: Option<usize>,",
        "}",
    ]
)
STRUCT = SymbolRow("r", "src/walk.rs", "walk.WalkBuilder", "WalkBuilder", "Class", 5, 7, "d", "")


def test_the_declaration_line_wins_a_tie_with_a_comment_naming_it() -> None:
    found = locate_in_file(BODY, [STRUCT], query_terms("WalkBuilder"))
    assert found is not None
    assert (found.start_line, found.end_line) == (5, 7)
    assert found.snippet.splitlines()[0] == "5: pub struct WalkBuilder {"


def test_a_better_matching_line_still_wins_over_a_declaration() -> None:
    found = locate_in_file(BODY, [STRUCT], query_terms("WalkBuilder walking see"))
    assert found is not None
    assert found.start_line == 1
