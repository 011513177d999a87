"""A version the query writes (`bump clap from 4.5.1 to 4.5.2`) is matched whole on a hit's
lines, not as the digits it is made of. QA on sharkdp/fd: that request pointed Cargo.toml at
lines 38-46 (`regex = "1.12.2"`, `normpath = "1.5.1"`), which held most of 4, 5, 1 and 2,
not at clap's lines; and main.rs at its LS_COLORS string, full of digits."""

from __future__ import annotations

from query_api.retrieval.hit_details import line_score, locate_in_file, query_terms

MANIFEST = "\n".join(
    [
        "[dependencies]",  # 1
        'regex = "1.12.2"',  # 2
        'normpath = "1.5.1"',  # 3
        'libc = "0.2.4"',  # 4
        "",
        "[dependencies.clap]",  # 6
        'version = "4.5.1"',  # 7
        'features = ["derive"]',  # 8
    ]
)


def test_a_version_is_one_term_matched_whole() -> None:
    terms = query_terms("chore(deps): bump clap from 4.5.1 to 4.5.2")
    assert {"4.5.1", "4.5.2"} <= set(terms.identifiers), terms
    assert not terms.words & {"4", "5", "1", "2"}, terms.words
    found = locate_in_file(MANIFEST, [], terms)
    assert found is not None and 6 <= found.start_line <= 7 <= found.end_line, found
    assert "3: normpath" not in found.snippet, found
    # a line holding the digits apart is no match for the version
    colors = 'const COLORS: &str = "ow=0:or=0;38;5;1;48;5;2:4;5;1:4;5;2";\nuse clap::Parser;'
    assert line_score(colors.split("\n")[0], terms) == 0
