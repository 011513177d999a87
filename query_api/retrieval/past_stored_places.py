"""A place past the text stored for a large file (`tests/tests.rs:2812` in a 75 KB file whose
first 64 Ki characters are stored) points the file's hit at the declaration holding it.

named_lines.py points a hit at the lines a place names, and past the stored text it can show
none: the hit kept the lines its words found, and the answer's note says to open the file
there. The declarations reach past the stored text (they are extracted as far as search
indexes the file), so the one holding the place says where it is. QA on sharkdp/fd:
`tests/tests.rs:2812`, inside test_hyperlink (2811-2827), pointed at lines 48-53, which held
only the path's word `tests`.
"""

from __future__ import annotations

from collections.abc import Sequence

from query_api.retrieval.hit_details import DETAILED_HITS, MAX_RANGE_LINES, HitLocator
from query_api.retrieval.named_lines import (
    Place,
    named_holder,
    named_place,
    place_of,
    written_places,
)
from schemas import tools as t
from streams.stores.views.symbol_spans import Declared


def at_stored_places(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed hit of a file cut at its stored text, which the query names
    by a place past that text, at the declaration holding the place (in_declaration)."""
    places = written_places(query)
    if not places:
        return hits
    out = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        place = place_of(places, path) if path else None
        cut = "truncated" in hit.entry.fields
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path and place and cut:
            body = locator.body(repo_id, path) or ""
            if place.first > len(body.rstrip("\n").split("\n")):
                hit = in_declaration(hit, locator.symbols_of(repo_id, path), place)
                hit = named_holder(locator, repo_id, hit, place, named_place(query) is not None)
        out.append(hit)
    return out


def in_declaration(hit: t.SearchHit, symbols: Sequence[Declared], place: Place) -> t.SearchHit:
    """`hit` at the innermost declaration holding the place, or at the place itself inside
    one longer than MAX_RANGE_LINES; no snippet, the text is not stored. A place no
    declaration holds keeps the lines its words found."""
    around = [s for s in symbols if s.start_line <= place.first <= s.end_line]
    if not around:
        return hit
    inner = min(around, key=lambda s: s.end_line - s.start_line)
    first, last = inner.start_line, inner.end_line
    if last - first + 1 > MAX_RANGE_LINES:
        first, last = place.first, min(place.last, inner.end_line)
    return hit.model_copy(update={"startLine": first, "endLine": last, "snippet": None})
