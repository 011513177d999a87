"""A users query naming a declaration in words (`what uses the TLV encoder`, `which files call
the order service`) asks for the users of the declaration those words spell as code
(`TLVEncoder`, `OrderService`, `order_service`), when the repository declares one.

users_first reads a name written as code; words are no name, so such a query was searched as
words. QA on benoitc/gunicorn: `what uses the TLV encoder` ranked dirty/tlv.py (declaring
TLVEncoder) first, then ctl/protocol.py, http/message.py and http/wsgi.py, none of which uses
it, and dirty/protocol.py (`TLVEncoder.encode(payload_dict)`) second with no `uses:` reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from query_api.retrieval.users_first import REASON, users_form
from schemas import tools as t

# two or three plain words, the last no kind (`the order service`, not `the order class`)
_WORDS = r"(?:the\s+)?([A-Za-z][A-Za-z0-9]*(?:\s+[A-Za-z][A-Za-z0-9]*){1,2})"
_SPELLED = users_form(_WORDS)
_NOT_NAMES = frozenset({"the", "a", "an", "of", "in", "on", "for", "to", "and", "or", "with"})

Declared = Callable[[Sequence[str]], set[str]]  # names -> those the repository declares


def spellings(query: str) -> list[str]:
    """The code names a users query's words may spell, most likely first: CamelCase keeping
    an acronym (`TLVEncoder`), CamelCase (`TlvEncoder`), snake case (`tlv_encoder`); for no
    users query of two or three words, none."""
    found = _SPELLED.match(query)
    if found is None:
        return []
    words = next(group for group in found.groups() if group).split()
    if any(word.casefold() in _NOT_NAMES for word in words):
        return []
    kept = "".join(w if w.isupper() else w[:1].upper() + w[1:] for w in words)
    # a short word written in lower case may be an acronym (`the tlv encoder`)
    acronyms = "".join(w.upper() if len(w) <= 3 else w[:1].upper() + w[1:] for w in words)
    camel = "".join(w[:1].upper() + w[1:].lower() for w in words)
    snake = "_".join(w.lower() for w in words)
    return list(dict.fromkeys([kept, acronyms, camel, snake, snake.upper()]))


def spelled_name(query: str, declared: Declared) -> str | None:
    """The first of the query's spellings the repository declares, else None."""
    names = spellings(query)
    if not names:
        return None
    held = declared(names)
    return next((name for name in names if name in held), None)


def placed_name(query: str, hits: Sequence[t.SearchHit]) -> str | None:
    """The spelled name the users were placed for (the `uses:` reason naming one of the
    query's spellings), for the steps pointing each hit at its uses (use_sites): without
    it, `who uses the dirty client` pointed benchmarks/dirty_benchmark.py at a docstring's
    `clients`, not at `DirtyClient(...)`."""
    names = spellings(query)
    if not names:
        return None
    for hit in hits:
        for reason in hit.reasons:
            if reason.startswith(REASON) and reason[len(REASON) :] in names:
                return reason[len(REASON) :]
    return None
