"""A hit on a file declaring a name in two cases (`isDateString` and `IsDateString`, Go's
`before` and `Before`) points at the one the query spells, not at its sibling.

A hit's lines are those holding the most of the query's words, and a compound name matches
case-insensitively, so the sibling whose line holds more of the request's other words wins:
QA on typestack/class-validator, `fix: pass options to validator in @IsDateString decorator`
pointed IsDateString.ts at `isDateString` (lines 11-13, whose signature holds `options` and
`ValidatorJS`), and the change was in the `IsDateString` decorator (line 27); `@IsAlphanumeric`
alike. When a detailed hit lies in a declaration whose name is one the query writes in
another case, and the file declares the name as written, the hit is that declaration: its
lines when it is at most MAX_RANGE_LINES long, else its head. Lines only.
"""

from __future__ import annotations

from collections.abc import Sequence

from processors.tokenizer import named_identifiers
from query_api.retrieval.hit_details import DETAILED_HITS, LINE_CHARS, MAX_RANGE_LINES, HitLocator
from schemas import tools as t
from streams.stores.views.symbol_spans import Declared


def at_spelled_declarations(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed file hit inside a declaration of a name the query writes in
    another case pointed at the declaration spelled as written (module doc)."""
    written = {name for name in named_identifiers(query) if name in query}
    if not written:
        return hits
    keys = [name.casefold() for name in written]  # a name written in both cases: neither
    folded = {name.casefold(): name for name in written if keys.count(name.casefold()) == 1}
    out = []
    for rank, hit in enumerate(hits):
        path, start = hit.entry.path, hit.startLine
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path and start is not None:
            symbols = locator.symbols_of(repo_id, path)
            spelled = _spelled_instead(symbols, start, folded)
            if spelled is not None:
                lines = (locator.body(repo_id, path) or "").split("\n")
                hit = _at(hit, spelled, lines)
        out.append(hit)
    return out


def _spelled_instead(
    symbols: Sequence[Declared], line: int, folded: dict[str, str]
) -> Declared | None:
    """The declaration spelled as the query writes a name, when `line` lies in the file's
    declaration of that name in another case (the innermost holding it) and not in it."""
    around = [s for s in symbols if s.start_line <= line <= s.end_line]
    if not around:
        return None
    inner = min(around, key=lambda s: s.end_line - s.start_line)
    wanted = folded.get(inner.name.casefold())
    if wanted is None or inner.name == wanted:
        return None
    return next((s for s in symbols if s.name == wanted), None)


def _at(hit: t.SearchHit, s: Declared, lines: Sequence[str]) -> t.SearchHit:
    first = s.start_line
    last = min(s.end_line, first + MAX_RANGE_LINES - 1, len(lines))
    text = lines[first - 1].strip() if 0 < first <= len(lines) else ""
    text = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
    snippet = f"{first}: {text}" if text else hit.snippet
    return hit.model_copy(update={"startLine": first, "endLine": last, "snippet": snippet})
