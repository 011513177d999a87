"""A hit whose lines lie past a large file's stored text shows the heads of the declarations
there as its snippet, read from the symbols.

A file's stored text is its first 64 Ki characters, and its declarations reach further (they are
extracted as far as search indexes the file), so a hit can point at a declaration whose lines
no stored text holds. It then had no snippet at all: jackson-core's `where is getNumberType
defined` pointed JsonParser.java at line 1800 and showed nothing, where its neighbours showed
`public NumberType getNumberType() throws IOException`. The symbols keep each declaration's
signature, which says what is there in the form an outline shows it (`1800: public abstract
NumberType getNumberType() throws IOException`), so the hit shows those, as the bundle sends
its heads for the same hit (context/entries.py). A hit with a snippet keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from query_api.retrieval.hit_details import DETAILED_HITS, LINE_CHARS, SNIPPET_LINES, HitLocator
from query_api.symbols.shown_signatures import shown_signature
from schemas import tools as t
from streams.stores.views.symbol_spans import Declared

D = TypeVar("D", bound=Declared)


def at_past_stored_heads(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed hit of a cut file whose lines start past its stored text,
    and which shows no snippet, showing the heads of the declarations at its lines."""
    del query  # the hits' lines say where: the query's form chose them
    out = []
    for rank, hit in enumerate(hits):
        if rank < DETAILED_HITS and _wants_heads(hit):
            hit = _with_heads(locator, repo_id, hit)
        out.append(hit)
    return out


def _wants_heads(hit: t.SearchHit) -> bool:
    return (
        hit.entry.kind == "File"
        and bool(hit.entry.path)
        and hit.startLine is not None
        and not hit.snippet
        and "truncated" in hit.entry.fields
    )


def _with_heads(locator: HitLocator, repo_id: str, hit: t.SearchHit) -> t.SearchHit:
    path, first = hit.entry.path or "", hit.startLine or 0
    last = hit.endLine if hit.endLine is not None else first
    stored = (locator.body(repo_id, path) or "").rstrip("\n").count("\n") + 1
    if first <= stored:
        return hit  # the text is stored there: the steps that chose the lines left it out
    at = declarations_at(locator.symbols_of(repo_id, path), first, last)
    if not at:
        return hit
    # the signatures of those alone, by their names: a generated module declares thousands
    wanted = {(s.fq_name, s.start_line) for s in at}
    named = locator.symbols.symbols_named(repo_id, sorted({s.name for s in at}))
    rows = [r for r in named if r.path == path and (r.fq_name, r.start_line) in wanted]
    heads = [head_line(r.start_line, r.signature or r.name) for r in _in_order(rows)]
    return hit.model_copy(update={"snippet": "\n".join(heads)}) if heads else hit


def declarations_at(symbols: Sequence[Declared], first: int, last: int) -> list[Declared]:
    """The declarations starting in lines `first`-`last` (at most SNIPPET_LINES, outermost
    first: a class before its methods), else the innermost holding `first`."""
    starting = [s for s in symbols if first <= s.start_line <= last]
    if not starting:
        holding = [s for s in symbols if s.start_line <= first <= s.end_line]
        starting = [min(holding, key=lambda s: s.end_line - s.start_line)] if holding else []
    return _in_order(starting)[:SNIPPET_LINES]


def _in_order(symbols: Sequence[D]) -> list[D]:
    return sorted(symbols, key=lambda s: (s.start_line, -s.end_line))


def head_line(line: int, signature: str) -> str:
    """A declaration's head as a snippet line: `line: signature` on one line, shown as
    outlines show it (symbols/shown_signatures.py)."""
    text = " ".join(shown_signature(signature).split())
    if len(text) > LINE_CHARS:
        text = text[: LINE_CHARS - 1] + "…"
    return f"{line}: {text}"
