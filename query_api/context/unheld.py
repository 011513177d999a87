"""A span the caller's session partly holds, cut to the lines it lacks (span_reuse.py): each run
of them a span unit keyed by its lines, the held lines acknowledged by their numbers."""

from __future__ import annotations

from collections.abc import Callable

from query_api.context.receipts import receipt_of
from query_api.context.span_reuse import (
    EDGE_LINES,
    MIN_HELD_LINES,
    HeldSpans,
    held_runs,
    unit_lines,
)
from schemas import bundle as b


def unheld(
    count: Callable[[str], int],
    repo_id: str,
    entry: b.BundleEntry,
    digest: str,
    texts: list[str],
    had: list[bool],
    spans: HeldSpans,
) -> tuple[b.BundleEntry, list[str], list[bool], list[tuple[int, int]]]:
    """`entry` with each span that overlaps lines the session holds of this version (at
    least MIN_HELD_LINES of them) cut to the runs it does not hold, each run a span unit
    keyed by its lines; with its texts and which of its units the session has, to match,
    and the runs of the cut spans' lines the session holds (to acknowledge). A session
    sent ky's merge.ts 109-183 was sent 102-191 again: 75 of its 90 lines."""
    parts: list[tuple[b.Unit | None, str, tuple[int, int] | None, bool]] = []
    held: list[tuple[int, int]] = []
    for unit, text, lines, was in zip(entry.units, texts, unit_lines(entry), had, strict=True):
        rows = text.split("\n")
        if was or lines is None or len(rows) != lines[1] - lines[0] + 1:
            parts.append((unit, text, lines, was))
            continue
        runs = spans.uncovered(entry.path, digest, lines)
        if len(rows) - sum(z - a + 1 for a, z in runs) < MIN_HELD_LINES:
            parts.append((unit, text, lines, was))
            continue
        held += held_runs(lines, runs)
        # a few lines at its edge are the padding around what the session holds
        runs = [(a, z) for a, z in runs if z - a + 1 >= EDGE_LINES or lines[0] < a <= z < lines[1]]
        if not runs:  # the session holds all it says
            parts.append((unit, text, lines, True))
            continue
        for a, z in runs:  # new units: a span of the lines the session lacks
            parts.append((None, "\n".join(rows[a - lines[0] : z - lines[0] + 1]), (a, z), False))
    now_had = [was for *_, was in parts]
    if all(old is not None for old, *_ in parts):  # none cut (some may be held now)
        return entry, texts, now_had, []
    several = len(parts) > 1
    units = []
    for old, text, span, _ in parts:
        if old is not None and not several:
            units.append(old)
            continue
        if old is None:
            assert span is not None
            receipt = receipt_of(repo_id, entry.path, digest, "span", f"{span[0]}-{span[1]}")
            old = b.Unit(receipt=receipt, kind="span", tokenCount=count(text))
        start, end = span if several and span else (None, None)
        units.append(old.model_copy(update={"startLine": start, "endLine": end}))
    new_texts = [text for _, text, _, _ in parts]
    content = "\n".join(new_texts)
    only = parts[0][2] if not several else None
    update = {
        "units": units,
        "content": content,
        "tokenCount": count(content),
        "startLine": only[0] if only else None,
        "endLine": only[1] if only else None,
    }
    return entry.model_copy(update=update), new_texts, now_had, held
