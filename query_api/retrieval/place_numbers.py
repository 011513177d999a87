"""A pasted stack trace's numbers that say where, taken out before a hit's lines are matched.

A trace's frame indexes (Rust's `   0: rust_begin_unwind`, gdb's `#0  0x...`), the line and
column after a file's name (`src/cli.rs:430:9`) and a Python traceback's `line 12` are places,
which query_api/retrieval/named_lines.py reads; as words they match any line full of digits.
QA on sharkdp/fd: a Rust panic's backtrace pointed main.rs's hit at the default LS_COLORS
string (`ow=0:or=0;38;5;16;...`), the line holding most of 0, 1, 2, 9, 23, 45 and 430. A number
the query says for itself (`port 8080`, `404`) stays.
"""

from __future__ import annotations

import re

from streams.stores.views.named_files import MENTIONS_LINES, WORDED_PLACES

# `name.ext:12:5`, a line and its column: a place wherever it is written
_LINE_COLUMN = re.compile(r"(\.[A-Za-z][A-Za-z0-9]{0,9}):\d+:\d+\b")
# `name.ext(12,5):`, a compiler's line and column (tsc, MSBuild): a place wherever it is written
_COMPILER = re.compile(r"(\.[A-Za-z][A-Za-z0-9]{0,9})\(\d+(?:,\s*\d+)?\)(?=:)")
# `name.ext:12`: a place in a pasted trace; on a line of its own, as often a host's port
# (`example.com:8080`)
_AFTER_FILE = re.compile(r"(\.[A-Za-z][A-Za-z0-9]{0,9}):\d+\b")
# a traceback's `, line 12`
_LINE_WORD = re.compile(r"\bline\s+\d+\b", re.IGNORECASE)
# a frame's index opening its line: `   0: name`, `#3  0x...`
_FRAME = re.compile(r"^\s*(?:\d+:|#\d+)(?=\s)", re.MULTILINE)


def without_place_numbers(query: str) -> str:
    """`query` less the numbers its places and frames write: a line and column anywhere (a
    compiler's `name.ext(12,5):` too), a place in words but its file (`line 12 of app.py`),
    a line after a file's name, a traceback's `line 12` and frame indexes in a query of
    several lines (a pasted trace)."""
    query = _LINE_COLUMN.sub(r"\1 ", query)
    query = _COMPILER.sub(r"\1 ", query)
    # a place in words, its file kept: `line 167 of markup.py` (QA on Textualize/rich: its
    # `line` pointed rich/traceback.py at `line: str = ""`)
    for pattern, file in zip(WORDED_PLACES, (r" \1 ", r" \3 "), strict=True):
        query = pattern.sub(file, query) if MENTIONS_LINES.search(query) else query
    if "\n" not in query.strip():
        return query
    query = _AFTER_FILE.sub(r"\1 ", query)
    query = _LINE_WORD.sub(" ", query)
    return _FRAME.sub(" ", query)
