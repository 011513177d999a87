"""A query about tests (`tests for search_str_for_entry`, `which test covers X`) points a Rust
file's hit into its `#[cfg(test)]` module when lines there match: the tests of X are what it
asks for. QA on sharkdp/fd: walk.rs came first but pointed at `fn search_str_for_entry` itself
(lines 656-678), the declaration the hit's `symbol:` reasons name first, not at its tests in
`mod tests` (search_str_for_entry_with_relative_path and four more), which call it."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, query_terms
from streams.stores.views.symbols import SymbolRow

BODY = "\n".join(
    [
        "fn search_str_for_entry(path: &Path) -> &OsStr {",  # 1
        "    path.as_os_str()",
        "}",
        "",
        "#[cfg(test)]",  # 5
        "mod tests {",  # 6
        "    use super::*;",
        "",
        "    #[test]",
        "    fn search_str_for_entry_with_relative_path() {",  # 10
        '        let found = search_str_for_entry(Path::new("a/b"));',  # 11
        '        assert_eq!(found, "a/b");',
        "    }",  # 13
        "}",
    ]
)
SYMBOLS = [
    SymbolRow(
        "r",
        "src/walk.rs",
        "search_str_for_entry",
        "search_str_for_entry",
        "Function",
        1,
        3,
        "d",
        "",
    ),
    SymbolRow("r", "src/walk.rs", "tests", "tests", "Namespace", 6, 14, "d", "mod tests"),
    SymbolRow(
        "r",
        "src/walk.rs",
        "tests.search_str_for_entry_with_relative_path",
        "search_str_for_entry_with_relative_path",
        "Function",
        10,
        13,
        "d",
        "",
    ),
]


def test_a_query_about_tests_points_a_rust_hit_at_its_tests() -> None:
    named = [SYMBOLS[0]]  # the reasons name the function first
    for query in ("tests for search_str_for_entry", "which test covers search_str_for_entry"):
        found = locate_in_file(BODY, SYMBOLS, query_terms(query), None, named)
        assert found is not None and (found.start_line, found.end_line) == (10, 13), found
        assert "11: " in found.snippet, found
    # a query about the code itself still points at it
    code = locate_in_file(BODY, SYMBOLS, query_terms("search_str_for_entry"), None, named)
    assert code is not None and code.start_line == 1, code
