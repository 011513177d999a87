"""The terms that pick a hit's lines when its file never holds the query's identifiers whole
(hit_details._detailed): a qualified name's member, then the identifiers' words."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from processors.tokenizer import tokenize

if TYPE_CHECKING:
    from query_api.retrieval.hit_details import QueryTerms


def by_members(terms: QueryTerms) -> QueryTerms | None:
    """The last part of each qualified name the query writes (`writeRepeat` of
    `AbstractByteArrayOutputStream.writeRepeat`) as its identifiers, else None. A file
    calling it through a value (`baout.writeRepeat(...)`) never holds `A.b` whole, and by
    its words a line spelling the qualifier won: QA on apache/commons-io, `tests for
    AbstractByteArrayOutputStream.writeRepeat` pointed ByteArrayOutputStreamTest.java at a
    helper whose signature holds `AbstractByteArrayOutputStream` and `write`."""
    spelled = terms.spelled if len(terms.spelled) == len(terms.qualified) else terms.qualified
    members = dict.fromkeys(parts[-1] for parts in spelled if len(parts) > 1 and parts[-1])
    if not members:
        return None
    return replace(
        terms,
        identifiers=tuple(m.lower() for m in members),
        split_identifiers=tuple(frozenset(tokenize(m)) for m in members),
    )


def by_parts(terms: QueryTerms) -> QueryTerms:
    """The query's identifiers as the words they are made of. Search matches `ctx.throw` by
    its tokens (a `proto.throw` declaration and `ctx` in the same file), so a hit whose file
    never holds it whole still has lines that hold its words; those are the hit's lines. Not
    a part of digits (`python3`'s `3` took `extra_lines: int = 3,`: QA on Textualize/rich)."""
    return type(terms)((), terms.words | {part for part in terms.parts if not part.isdigit()})
