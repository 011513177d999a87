"""A hit on a file longer than the stored text is no declaration's place past it when a
declaration of the same name, also named by the hit's reasons, is stored: its lines show what
the query names. QA on benoitc/gunicorn: `how do I change the default number of workers`
pointed config.py (99 KB) at `DirtyWorkers.default` (line 3067, past the stored text, no
snippet), though its first reason was `Workers.default`, stored at line 723."""

from __future__ import annotations

from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.past_body_names import named_past_body
from streams.stores.views.symbol_spans import SymbolSpan

BODY = "\n".join(f"# line {n}" for n in range(1, 101))  # the stored text: 100 lines
SYMBOLS = [
    SymbolSpan("app.config.Workers", "Workers", 20, 30, "class"),
    SymbolSpan("app.config.Workers.default", "default", 24, 24, "field"),
    SymbolSpan("app.config.DirtyWorkers", "DirtyWorkers", 300, 310, "class"),
    SymbolSpan("app.config.DirtyWorkers.default", "default", 304, 304, "field"),
]


def test_a_stored_namesake_the_reasons_name_keeps_the_stored_lines() -> None:
    reasons = ["symbol:app.config.Workers.default", "symbol:app.config.DirtyWorkers.default"]
    terms = query_terms("how do I change the default number of workers")
    assert named_past_body(SYMBOLS, reasons, terms, BODY) is None


def test_without_a_stored_namesake_the_place_past_the_text_is_shown() -> None:
    reasons = ["symbol:app.config.DirtyWorkers.default"]
    terms = query_terms("how do I change the default number of workers")
    found = named_past_body(SYMBOLS, reasons, terms, BODY)
    assert found is not None and found.fq_name == "app.config.DirtyWorkers.default", found
