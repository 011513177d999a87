"""The places a Rust compiler's diagnostic and a Rust panic write: where the error is.

rustc writes the place of an error or a warning on its own line below the message (`  -->
examples/multi.rs:20:8`), and a panic names the place that panicked after the thread
(`thread 'main' panicked at src/style.rs:84:9:`). Read only as words of the query, a place
after a long message lay past the words search reads for paths: QA on console-rs/indicatif,
`error[E0599]: no method named `set_tab_width` found for struct `MultiProgress` in the current
scope` with `--> examples/multi.rs:20:8` left examples/multi.rs out of the first ten. As
frames (named_lines.frames) they rank their files first, the panic's or the first
diagnostic's place first. A backtrace's `at ./src/main.rs:10:5` lines are read as a
JavaScript trace's are (named_lines.v8_frames).
"""

from __future__ import annotations

import re

# rustc's `--> path:line:col` below a message; a panic's `panicked at path:line:col:`, and
# before Rust 1.73 `panicked at 'message', path:line:col`
_DIAGNOSTIC = re.compile(r"^[ \t]*-->[ \t]+([^\s:]+):(\d+):\d+[ \t]*$", re.MULTILINE)
_PANIC = re.compile(r"\bpanicked at (?:'(?:[^'\n]|'(?!, ))*', )?([^\s:']+):(\d+):\d+")
PLACE_CHARS = 8000  # characters of a query read for them, as named_lines reads places


# the source line a diagnostic quotes below its place: `419 |     self.push_line(...);`
_QUOTED = re.compile(r"^[ \t]*(\d+)[ \t]*\|[ \t]?(.*\S)[ \t]*$", re.MULTILINE)
_QUOTE_LINES = 3  # lines after the place its quoted source line comes within


def rust_frames(text: str) -> list[tuple[str, int, str]]:
    """The (path, line, the code quoted for it) of each place a Rust panic or compiler
    diagnostic in `text` writes, in the order written: a panic's first, then each
    diagnostic's, with the source line rustc quotes below it (named_lines.quoted_line finds
    it in a file of another version, as a Python traceback's)."""
    head = text[:PLACE_CHARS]
    found = [(m.start(), m.group(1), int(m.group(2)), "") for m in _PANIC.finditer(head)]
    for m in _DIAGNOSTIC.finditer(head):
        line = int(m.group(2))
        after = head[m.end() :].split("\n", _QUOTE_LINES + 1)[: _QUOTE_LINES + 1]
        quoted = next(
            (q.group(2) for q in map(_QUOTED.match, after) if q and int(q.group(1)) == line), ""
        )
        found.append((m.start(), m.group(1), line, quoted.strip()))
    return [
        (path.replace("\\", "/").removeprefix("./"), line, quoted)
        for _, path, line, quoted in sorted(found)
    ]
