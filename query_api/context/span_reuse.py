"""Spans a session was sent, so a later call in it does not send their lines again.

A span is cut afresh for each call's share of the budget, so a second call in a session can
cut a file's lines differently: a QA pass saw koa's response.js sent as lines 1-322, then as
lines 10-285 under a new receipt (115 of its 127 lines repeats) and request.js as 1-247 then
1-248, with responseTokens barely moving. Besides its receipts, a session now records each
span it was sent as `path NUL hash NUL start NUL end` (the stored body's hash, so an edited
file is sent anew), and a span within one of those is acknowledged in `reused` instead.
Like receipts, these only ever withhold content (spec §3.7: wire tokens never widen access).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemas import bundle as b

_PARTS = 4


def span_token(path: str, content_hash: str, start: int, end: int) -> str:
    return "\x00".join((path, content_hash, str(start), str(end)))


class HeldSpans:
    """The spans among a caller's tokens, by (path, hash)."""

    def __init__(self, tokens: Iterable[str]) -> None:
        self._by_file: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for token in tokens:
            parts = token.split("\x00")
            if len(parts) != _PARTS or not parts[2].isdigit() or not parts[3].isdigit():
                continue
            key = (parts[0], parts[1])
            self._by_file.setdefault(key, []).append((int(parts[2]), int(parts[3])))

    def covers(self, path: str, content_hash: str, lines: tuple[int, int] | None) -> bool:
        if lines is None:
            return False
        held = self._by_file.get((path, content_hash), ())
        return any(start <= lines[0] and lines[1] <= end for start, end in held)


def unit_lines(entry: b.BundleEntry) -> list[tuple[int, int] | None]:
    """Each unit's lines where it is a span: its own (several spans) or the entry's (one)."""
    out: list[tuple[int, int] | None] = []
    for unit in entry.units:
        start = unit.startLine or (entry.startLine if len(entry.units) == 1 else None)
        end = unit.endLine or (entry.endLine if len(entry.units) == 1 else None)
        out.append((start, end) if unit.kind == "span" and start and end else None)
    return out


def sent_spans(entry: b.BundleEntry, content_hash: str) -> set[str]:
    """The tokens recording the spans of a packed entry."""
    return {
        span_token(entry.path, content_hash, *lines)
        for lines in unit_lines(entry)
        if lines is not None
    }
