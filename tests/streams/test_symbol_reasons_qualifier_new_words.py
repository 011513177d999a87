"""A qualifier lifts a declaration's `symbol:` reason only by the query words it holds
beyond those the declaration's own name holds. QA on valyala/fasthttp: `tests for
parseTrailer` led header_test.go's reasons with the field `trailer` of a table inside
`TestResponseHeaderAddTrailerRejectsInvalidNames` (its qualifier holds `trailer`, the word
the field's name already matched), above the test itself, and the hit pointed at the
field's line, `trailer string`."""

from __future__ import annotations

from streams.stores.views.symbol_spans import SymbolSpan, matching_names

WEIGHTS = {"parse": 0.9, "trailer": 2.0}


def test_a_qualifier_repeating_the_names_word_lifts_nothing() -> None:
    rows = [
        SymbolSpan(
            "web.TestAddTrailerRejectsInvalidNames", "TestAddTrailerRejectsInvalidNames", 10, 40
        ),
        SymbolSpan("web.TestAddTrailerRejectsInvalidNames.trailer", "trailer", 15, 15),
    ]
    assert matching_names(rows, WEIGHTS, 5)[0] == "web.TestAddTrailerRejectsInvalidNames"


def test_a_qualifier_holding_other_query_words_still_lifts() -> None:
    rows = [
        SymbolSpan("web.Config.trailer", "trailer", 5, 5),
        SymbolSpan("web.ParseOptions.trailer", "trailer", 9, 9),
    ]
    assert matching_names(rows, WEIGHTS, 5)[0] == "web.ParseOptions.trailer"
