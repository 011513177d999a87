"""The words with which a query about documentation names it (`where is X documented`, `docs
for X`): they say what kind of file is asked for, not what it is about. docs_first.py matches
a doc's subject without them, and a hit's lines are picked without them
(hit_details.locating_terms)."""

from __future__ import annotations

DOC_WORDS = frozenset({"doc", "docs", "documented", "documentation", "document", "documents"})
