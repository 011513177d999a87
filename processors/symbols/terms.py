"""A file's symbol search terms, derived once per file version with its symbols.

The views index these strings as they come (streams/stores/views/symbol_tables.py), so every store
indexes identical terms, the tokenizer runs in the processor workers and not in the view
sink's write transaction, and a tokenizer change is one processor version (re-derived from
the log) instead of a silent difference between old and new view rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from processors.tokenizer import tokenize


def joined_terms(texts: Iterable[str]) -> str:
    return " ".join(t for text in texts for t in tokenize(text))


def search_terms(symbols: list[dict[str, Any]]) -> dict[str, str]:
    """The SymbolsRecord fields of a file's extracted declarations: each declaration's simple
    name, once per declaration (owners are declarations too, so `Class.method` contributes
    both words; the package or module prefix is left out: it repeats the path, which content
    search indexes already), and each signature."""
    return {
        "symbol_terms": joined_terms(s["name"] for s in symbols),
        "signature_terms": joined_terms(s["signature"] for s in symbols),
    }
