"""A docs question naming the man page (`where is the man page for --warmup`) puts the man
pages holding its subject first among the docs that do. A README or a diagram writing the
flag came first by rank: QA on sharkdp/hyperfine put README.md and doc/execution-order.svg
above doc/hyperfine.1, whose troff writes the flag `\\-\\-warmup` (docs_first.holds_subject
reads it so)."""

from __future__ import annotations

import re
from collections.abc import Callable

from schemas import tools as t
from streams.stores.views.man_pages import is_man_page

_NAMES_MAN_PAGE = re.compile(r"\bman(?:ual)?[\s-]*pages?\b|\bmanpages?\b", re.IGNORECASE)


def man_pages_first(
    query: str, hits: list[t.SearchHit], is_page: Callable[[t.SearchHit], bool]
) -> list[t.SearchHit]:
    """`hits` with the man pages of its leading run of docs (`is_page`) first, when the query
    names a man page; unchanged otherwise."""
    if _NAMES_MAN_PAGE.search(query) is None:
        return hits
    lead = 0
    while lead < len(hits) and is_page(hits[lead]):
        lead += 1
    pages = [hit for hit in hits[:lead] if is_man_page(hit.entry.path or "")]
    if not pages:
        return hits
    return [*pages, *(hit for hit in hits if hit not in pages)]
