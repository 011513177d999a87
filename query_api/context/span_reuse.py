"""Spans a session was sent, so a later call in it does not send their lines again.

A span is cut afresh for each call's share of the budget, so a second call in a session can
cut a file's lines differently: a QA pass saw koa's response.js sent as lines 1-322, then as
lines 10-285 under a new receipt (115 of its 127 lines repeats) and request.js as 1-247 then
1-248, with responseTokens barely moving. Besides its receipts, a session now records each
span it was sent as `path NUL hash NUL start NUL end` (the stored body's hash, so an edited
file is sent anew), and a span within one of those is acknowledged in `reused` instead.
Like receipts, these only ever withhold content (spec §3.7: wire tokens never widen access).

A span that only overlaps what the session holds (a window cut wider for a larger share: ky's
merge.ts 109-183, then 102-191 under a new receipt, 75 of its 90 lines again) sends only the
lines it does not hold, each run of them a span keyed by its lines (`uncovered`); the lines a
session holds are the union of the spans it was sent, not each one alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from schemas import bundle as b

_PARTS = 4
# a span is cut down to the lines the session lacks only when it holds at least this many of
# them: each run left is a unit of its own (receipt, lines, a text header: ~25 tokens), which
# a few held lines (code travels twice) do not pay for
MIN_HELD_LINES = 8
# fewer lines than this left at a span's edge are the padding around what the session holds,
# not sent: two units of a line or two each cost more envelope than they carry code
EDGE_LINES = 4


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
        return lines is not None and not self.uncovered(path, content_hash, lines)

    def uncovered(
        self, path: str, content_hash: str, lines: tuple[int, int]
    ) -> list[tuple[int, int]]:
        """The runs of `lines` (first, last) that no span the session holds of this version
        of the file covers, in order: empty when it holds them all."""
        runs: list[tuple[int, int]] = []
        start, end = lines
        for a, z in sorted(self._by_file.get((path, content_hash), ())):
            if z < start or a > end:
                continue
            if a > start:
                runs.append((start, a - 1))
            start = max(start, z + 1)
            if start > end:
                return runs
        return [*runs, (start, end)]


def held_runs(lines: tuple[int, int], uncovered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The runs of `lines` that are not in `uncovered` (HeldSpans.uncovered's answer for
    them, in order): the lines the session holds."""
    out: list[tuple[int, int]] = []
    at = lines[0]
    for a, z in [*uncovered, (lines[1] + 1, lines[1] + 1)]:
        if a > at:
            out.append((at, a - 1))
        at = max(at, z + 1)
    return out


def unit_lines(entry: b.BundleEntry) -> list[tuple[int, int] | None]:
    """Each unit's lines where it is a span: its own (several spans) or the entry's (one);
    a whole body (the entry names its hash, not its lines) holds all of them."""
    out: list[tuple[int, int] | None] = []
    whole = (1, len(entry.content.splitlines())) if entry.contentHash else (None, None)
    for unit in entry.units:
        one = len(entry.units) == 1
        start = unit.startLine or (entry.startLine or whole[0] if one else None)
        end = unit.endLine or (entry.endLine or whole[1] if one else None)
        out.append((start, end) if unit.kind == "span" and start and end else None)
    return out


def sent_spans(entry: b.BundleEntry, content_hash: str) -> set[str]:
    """The tokens recording the spans of a packed entry."""
    return {
        span_token(entry.path, content_hash, *lines)
        for lines in unit_lines(entry)
        if lines is not None
    }
