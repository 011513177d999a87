"""What a bundle says of a file it sends as its path because the file is one long line (a
minified bundle, a generated map): such a line cannot be cut into spans, so a share smaller
than the whole file holds none of it, and the path alone, with no word, looked like a file the
packer had lost. The answer's note names each such file and its line's tokens."""

from __future__ import annotations

from collections.abc import Callable

from query_api.context.entries import WHOLE_BODY_TOKENS
from schemas import bundle as b

LISTED = 3  # files the note names; the rest are counted


def one_line_note(
    entries: list[b.BundleEntry], body_of: Callable[[str], str | None], count: Callable[[str], int]
) -> str | None:
    """The note for the `slices` entries sent as their path whose stored body is larger than
    WHOLE_BODY_TOKENS (so spans were tried) and mostly one line (it holds more than half the
    body's tokens), or None when there is none."""
    found: list[str] = []
    for entry in entries:
        full = entry.fullReadTokenCount or 0
        if [u.kind for u in entry.units] != ["pointer"] or full <= WHOLE_BODY_TOKENS:
            continue  # a smaller file is sent whole or not at all: never cut
        body = body_of(entry.path)
        if not body:
            continue
        tokens = count(max(body.split("\n"), key=len))
        if 2 * tokens > full:
            found.append(f"{entry.path} ({tokens:,} tokens)")  # the stored body's line
    if not found:
        return None
    more = len(found) - LISTED
    named = ", ".join(found[:LISTED]) + (f" and {more} more" if more > 0 else "")
    if len(found) == 1:
        return f"{named} is one line, too long to cut: sent as its path"
    return f"{named} are one line each, too long to cut: sent as their paths"
