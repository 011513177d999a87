"""The note of a bundle that sends a one-line file as its path (query_api/context/one_line.py)."""

from __future__ import annotations

from query_api.context.entries import WHOLE_BODY_TOKENS
from query_api.context.one_line import one_line_note
from schemas import bundle as b


def entry(path: str, kind: b.UnitKind, full: int | None) -> b.BundleEntry:
    unit = b.Unit(receipt="0" * 16, kind=kind, tokenCount=3)
    return b.BundleEntry(
        path=path,
        score=1.0,
        reasons=["content-match"],
        tokenCount=3,
        fullReadTokenCount=full,
        content=path,
        units=[unit],
    )


def test_only_pointers_of_files_that_are_mostly_one_line_are_named() -> None:
    big = WHOLE_BODY_TOKENS + 500  # spans are tried on a file past WHOLE_BODY_TOKENS only
    bodies = {
        "app.min.js": "x" * big + "\n",
        "license.min.js": "/*! MIT */\n" + "y" * big,  # a header line, then the code's line
        "long.py": "z = 1\n" * (big // 6),  # many lines: a share too small for any
        "spans.js": "w" * big,
        "small.json": "{}" * 100,  # sent whole or not at all: a share too small for it
    }
    entries = [
        entry("app.min.js", "pointer", big),
        entry("license.min.js", "pointer", big + 11),
        entry("long.py", "pointer", big),
        entry("spans.js", "span", big),
        entry("gone.js", "pointer", None),
        entry("small.json", "pointer", 200),
    ]
    note = one_line_note(entries, bodies.get, len)
    assert note == (
        "app.min.js (2,000 tokens), license.min.js (2,000 tokens) are one line each, "
        "too long to cut: sent as their paths"
    )
    assert one_line_note(entries[:1], bodies.get, len) == (
        "app.min.js (2,000 tokens) is one line, too long to cut: sent as its path"
    )
    assert one_line_note(entries[2:], bodies.get, len) is None


def test_past_three_files_the_rest_are_counted() -> None:
    bodies = {f"f{n}.js": "x" * (WHOLE_BODY_TOKENS + 1 + n) for n in range(5)}
    entries = [entry(path, "pointer", len(body)) for path, body in bodies.items()]
    note = one_line_note(entries, bodies.get, len)
    assert note is not None
    assert note.startswith("f0.js (1,501 tokens), f1.js (1,502 tokens), f2.js (1,503 tokens) and 2")
