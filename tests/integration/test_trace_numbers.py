"""The numbers of a pasted stack trace that say where (a frame's index, `0:`, a place's line
and column, `time.rs:45:23`, a traceback's `line 12`) are no words a hit's lines match. QA on
sharkdp/fd: a Rust panic's backtrace pointed main.rs's hit at lines 57-60, the default
LS_COLORS string (`ow=0:or=0;38;5;16;48;5;203:...`), whose digits were the most query words
on any line: 0, 1, 2, 9, 23, 45 and 430 were the frames' indexes and places."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.hit_details import query_terms
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

TRACE = (
    "thread 'main' panicked at src/filter/time.rs:45:23:\n"
    "attempt to add with overflow\n"
    "stack backtrace:\n"
    "   0: rust_begin_unwind\n"
    "   1: fd::filter::time::TimeFilter::from_str\n"
    "             at ./src/filter/time.rs:45:23\n"
    "   2: fd::cli::Opts::changed_within\n"
    "             at ./src/cli.rs:430:9\n"
)
FILES = {
    "src/main.rs": (
        "mod filter;\n\n"
        'const COLORS: &str = "ow=0:or=0;38;5;16;48;5;203:no=0:ex=1;2;9;23;45;430";\n\n'
        "fn main() {\n"
        "    let colors = COLORS;\n"
        "    filter::run(colors);\n"
        "}\n"
    ),
    "src/filter/time.rs": (
        "pub fn from_str(s: &str) -> Option<u64> {\n"
        "    let secs: u64 = s.parse().ok()?;\n"
        "    secs.checked_add(1)\n"
        "}\n"
    ),
}


async def test_a_traces_frame_numbers_and_places_pick_no_lines(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": TRACE})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "src/main.rs")
        assert hit["startLine"] != 3, hit  # the COLORS line holds only the trace's numbers
        assert "COLORS: &str" not in hit.get("snippet", ""), hit


def test_the_numbers_saying_where_are_no_words_of_the_query() -> None:
    words = query_terms(TRACE).words
    assert not words & {"0", "1", "2", "9", "23", "45", "430"}, words
    assert {"overflow", "panicked"} <= words
    # a number the query says for itself stays: a status, a port
    assert {"404", "8080"} <= query_terms("why does port 8080 answer 404").words
    assert "8080" in query_terms("why does example.com:8080 time out").words
    traceback = 'File "src/app.py", line 12, in <module>\n  raise ValueError(7)'
    assert "12" not in query_terms(traceback).words
    assert "7" in query_terms(traceback).words
