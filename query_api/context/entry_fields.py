"""What a bundle entry carries about its code: the key a unit's receipt is made from, and the
search hit's reasons as the entry keeps them (query_api/context/bundle.py packs the entries)."""

from __future__ import annotations

from collections.abc import Iterable

from query_api.answers.text import how_found
from streams.stores.views.symbols import SymbolRow


def unit_key(
    kind: str, symbol: str | None, ranges: list[tuple[int, int]], i: int, whole: bool
) -> str:
    """Outline units are keyed by symbol, and so is a span around a declaration: a span is
    cut afresh for each call's share of the budget (its lines move with it), and a caller
    that holds a declaration's code must not be sent it again because the next call's
    share padded it differently. A span around no declaration (a window on the lines that
    share the task's words), or holding only part of one (a window on a declaration longer
    than the share: the caller passes no symbol, EntryRenderer.windows), is keyed by its
    lines; a whole-body span and a pointer by nothing, as in the reference."""
    if kind == "outline":
        return symbol or ""
    if kind != "span" or whole:
        return ""
    if symbol is not None:
        return f"span:{symbol}"
    return f"{ranges[i][0]}-{ranges[i][1]}" if len(ranges) > i else ""


def bundle_reasons(reasons: list[str], packed: set[str], whole: bool = False) -> list[str]:
    """A search hit's reasons as a bundle entry carries them: a `symbol:<fq>` reason whose
    declaration is packed, or encloses one (a class whose methods the spans show), says
    again what its units say (a whole body packs every declaration the file holds), and of
    the others the first (the best match) says enough; how the file was found (`semantic`,
    `chunk:file`, `keyword-fused`) is the same on most entries and the answer's retrieval
    path says it: a file only the vectors found keeps `semantic`. The search answer keeps
    them all. Never empty."""
    out: list[str] = []
    named = False
    for reason in reasons:
        if how_found(reason):
            continue
        if reason.startswith("symbol:"):
            if whole or named or _shown(reason[len("symbol:") :], packed):
                continue
            named = True
        out.append(reason)
    return out or reasons[:1]


def _shown(fq: str, packed: set[str]) -> bool:
    return any(p == fq or p.startswith((fq + ".", fq + "::")) for p in packed)


def declared_within(declarations: Iterable[SymbolRow], ranges: list[tuple[int, int]]) -> set[str]:
    """The fq names of the declarations whose first line the sent `ranges` hold: a span
    around no declaration (a window on a small file's code) shows them as plainly as a
    span named for one does, and a `symbol:` reason naming one says again what the code
    shows (gin's render/data.go:5-31 was sent with `symbol:render.Data.Render`, 7 tokens
    of a 2,000-token answer's envelope)."""
    return {d.fq_name for d in declarations if any(a <= d.start_line <= z for a, z in ranges)}
