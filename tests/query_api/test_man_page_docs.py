"""A docs question naming the man page (`where is the man page for --warmup`) puts the man
page first among the docs holding its subject, and a man page's troff, which escapes each
hyphen (`\\-\\-warmup`), holds the flag it documents (query_api/retrieval/man_pages_first.py,
docs_first.holds_subject). QA on sharkdp/hyperfine ranked README.md and an SVG diagram above
doc/hyperfine.1, ninth."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MAN = """\
.TH TIMEIT 1
.SH NAME
timeit \\- a command\\-line benchmarking tool
.SH SYNOPSIS
.B timeit
.RB [ \\-w
.IR NUM ]
.SH OPTIONS
.HP
\\fB\\-w\\fR, \\fB\\-\\-warmup\\fR \\fINUM\\fP
.IP
Perform \\fINUM\\fP warmup runs before the actual benchmark.
"""

FILES = {
    "Cargo.toml": '[package]\nname = "timeit"\nversion = "0.1.0"\n',
    "README.md": (
        "# timeit\n\nA benchmarking tool. Run `timeit --warmup 3 'sleep 0.3'` to warm the\n"
        "caches first; the release page has packages.\n"
    ),
    "doc/execution-order.md": "Each command runs its --warmup runs, then its timing runs.\n",
    "doc/timeit.1": MAN,
    "src/cli.rs": (
        'pub fn build() -> Command {\n    Command::new("timeit")\n'
        '        .arg(Arg::new("warmup").long("warmup").help("Perform NUM warmup runs"))\n}\n'
    ),
}


async def _paths(tmp_path: Path, queries: list[str]) -> list[list[str]]:
    async with indexed_app(tmp_path, FILES) as app:
        return [
            [
                h.entry.path or ""
                for h in (await app.service.search(t.SearchArgs(repoId="repo", query=q))).hits
            ]
            for q in queries
        ]


async def test_the_man_page_for_a_flag_comes_first(tmp_path: Path) -> None:
    (paths,) = await _paths(tmp_path, ["where is the man page for --warmup"])
    assert paths[0] == "doc/timeit.1"


async def test_troff_holds_the_flag_it_documents(tmp_path: Path) -> None:
    (paths,) = await _paths(tmp_path, ["where is --warmup documented"])
    docs = {"README.md", "doc/execution-order.md", "doc/timeit.1"}
    assert set(paths[:3]) == docs
