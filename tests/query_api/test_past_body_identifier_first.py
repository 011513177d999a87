"""A hit on a file longer than the stored text, found by declarations past it, points at the
one named by the identifier the query spells as code before one named by a plain word of it.
QA on valyala/fasthttp: `validate trailer values in parseTrailer` pointed header.go (103 KB)
at `RequestHeader.validate` (line 2359, named by the word `validate`), not at `parseTrailer`
(line 2720), the function the commit changed and the hit's first `symbol:` reason: both lie
past the stored text, and the first in the file won."""

from __future__ import annotations

from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.past_body_names import named_past_body as _named_past_body
from streams.stores.views.symbol_spans import SymbolSpan

BODY = "\n".join(f"// line {n}" for n in range(1, 101))  # the stored text: 100 lines
SYMBOLS = [
    SymbolSpan("fasthttp.RequestHeader.validate", "validate", 2359, 2366, "method"),
    SymbolSpan("fasthttp.parseTrailer", "parseTrailer", 2720, 2750, "function"),
]


def test_the_identifier_the_query_writes_wins_over_a_word_past_the_stored_text() -> None:
    reasons = ["symbol:fasthttp.parseTrailer", "symbol:fasthttp.RequestHeader.validate"]
    terms = query_terms("validate trailer values in parseTrailer")
    found = _named_past_body(SYMBOLS, reasons, terms, BODY)
    assert found is not None and found.name == "parseTrailer", found


def test_a_word_alone_still_names_its_declaration_past_the_stored_text() -> None:
    reasons = ["symbol:fasthttp.RequestHeader.validate"]
    terms = query_terms("validate the host header")
    found = _named_past_body(SYMBOLS, reasons, terms, BODY)
    assert found is not None and found.name == "validate", found
