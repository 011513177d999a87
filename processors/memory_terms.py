"""A memory entry's search terms, derived by the memory processor with each new state of the
entry, so the view sink indexes them as they come (streams/stores/views/memory_search.py)
and the tokenizer runs once per change, not in the views' write transaction.

The fields follow the reference's field weights (spec §3.4), one column each: id and kind,
topic, tags, title, and the body with its author and provenance (the words an agent typed are
what it will search for).
"""

from __future__ import annotations

from processors.tokenizer import tokenize
from schemas.memory import MemoryEntry, MemoryTerms


def _joined(*texts: str) -> str:
    return " ".join(t for text in texts for t in tokenize(text))


def memory_terms(entry: MemoryEntry) -> MemoryTerms:
    f = entry.fields
    return MemoryTerms(
        key=_joined(entry.id, entry.kind),
        topic=_joined(entry.topic),
        tags=_joined(*entry.tags),
        title=_joined(f.get("title", "")),
        body=_joined(f.get("body", ""), f.get("author", ""), f.get("provenance", "")),
    )
