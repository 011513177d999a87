"""A range of lines that no one declaration holds names the declaration holding most of its
lines. QA on valyala/fasthttp: `bytesconv.go:120-130` (lines 122-128 are ParseHTTPDate,
line 120 the closing brace of AppendHTTPDate) led the hit's reasons with
`symbol:fasthttp.AppendHTTPDate`, the declaration holding the range's first line, while its
snippet showed ParseHTTPDate."""

from __future__ import annotations

from query_api.retrieval.named_lines import Place, holding
from streams.stores.views.symbol_spans import SymbolSpan

SYMBOLS = [
    SymbolSpan("fasthttp.AppendHTTPDate", "AppendHTTPDate", 115, 120, "Function"),
    SymbolSpan("fasthttp.ParseHTTPDate", "ParseHTTPDate", 122, 128, "Function"),
    SymbolSpan("fasthttp.parseRFC1123DateGMT", "parseRFC1123DateGMT", 130, 160, "Function"),
    SymbolSpan("fasthttp.Big", "Big", 200, 300, "Type"),
    SymbolSpan("fasthttp.Big.a", "a", 201, 201, "Field"),
    SymbolSpan("fasthttp.Big.b", "b", 202, 202, "Field"),
]


def _held(first: int, last: int) -> str | None:
    found = holding(SYMBOLS, Place("bytesconv.go", first, last))
    return None if found is None else found.name


def test_a_range_across_declarations_names_the_one_holding_most_of_it() -> None:
    assert _held(120, 130) == "ParseHTTPDate"


def test_a_range_one_declaration_holds_names_the_innermost() -> None:
    assert _held(123, 125) == "ParseHTTPDate"
    assert _held(201, 201) == "a"
    assert _held(201, 202) == "Big"


def test_a_range_outside_every_declaration_names_none() -> None:
    assert _held(170, 180) is None
