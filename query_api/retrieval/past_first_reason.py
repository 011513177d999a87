"""A hit on a file longer than the stored text, whose best-matching declaration lies past it,
points at that declaration.

A hit's lines are the stored lines holding the most of the query's words; its `symbol:`
reasons lead with the declaration whose name shares the query's weightiest words, which on
a file over 64 Ki characters may lie past the stored text. QA on valyala/fasthttp: `Server:
where do we write the Date header` found header.go (103 KB) by `updateServerDate` (line
2392, the stored text stops at line 2132) and pointed at line 60, `noDefaultDate bool`,
which holds only `date`. So when the first reason's declaration lies past the stored text
and its name holds more of the query's words than any line the hit would show, the hit is
that declaration's place (hit_details._detailed; no snippet, the text is not stored): `where
do we write the server Date header` points header.go at updateServerDate (2392-2400). That
first form keeps line 60: it reads `Server:` as a scope, and of its other words the name
holds only `date`, as line 60 does.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from processors.tokenizer import tokenize
from streams.stores.views.symbol_spans import Declared

SYMBOL_REASON = "symbol:"


def past_first_reason(
    symbols: Sequence[Declared],
    reasons: Sequence[str],
    words: Collection[str],
    stored_lines: int,
    shown: int,
) -> Declared | None:
    """The declaration the first `symbol:` reason of `reasons` names when it starts past the
    `stored_lines` and its name holds more of the query's `words` than `shown` (the best
    score of the lines the hit would show), else None."""
    first = next((r[len(SYMBOL_REASON) :] for r in reasons if r.startswith(SYMBOL_REASON)), None)
    if first is None:
        return None
    named = next((s for s in symbols if s.fq_name == first), None)
    if named is None or named.start_line <= stored_lines:
        return None
    held = len(set(tokenize(named.name)).intersection(words))
    return named if held > shown else None
