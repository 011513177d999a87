"""A definition query's hit on a long declaration opening with attributes or decorators shows
the line naming it (`pub struct Opts {`), not only the attributes above it. QA on sharkdp/fd:
`which file defines the Opts struct` pointed cli.rs at lines 21-26, `#[derive(Parser)]`,
`#[command(`, `name = "fd",`: clap's eleven attribute lines come before `pub struct Opts {`
(line 32), and the snippet was the declaration's first three lines."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

CLI = "\n".join(
    [
        "use clap::Parser;",  # 1
        "",
        "#[derive(Parser)]",  # 3
        "#[command(",  # 4
        '    name = "fd",',  # 5
        "    version,",  # 6
        '    about = "A program to find entries",',  # 7
        "    max_term_width = 98,",  # 8
        ")]",  # 9
        "pub struct Opts {",  # 10
        *[f"    /// option {n}\n    pub option_{n}: bool," for n in range(30)],
        "}",
        "",
    ]
)


def test_a_long_declarations_hit_shows_the_line_naming_it(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/cli.rs", CLI), {})
        path = "src/cli.rs"
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        locator = HitLocator(views)
        query = "which file defines the Opts struct"
        hits = enrich(locator, "r", query, [t.SearchHit(score=1.0, entry=entry)], details=True)
        [shown] = at_definitions(locator, "r", query, hits.hits)
    assert shown.startLine == 3, shown  # the declaration, its attributes included
    assert shown.snippet is not None and "10: pub struct Opts {" in shown.snippet, shown
    assert shown.endLine is not None and 10 <= shown.endLine < 20, shown
