"""Of a method's overloads, the one a request writes by name and parameter types without its
class (`fix quadratic printWithEscapes(Reader) delimiter look-ahead`).

declaration_named reads the written types for a qualified name only, and the hit's lines
went to the overload holding the most of the request's words: QA on apache/commons-csv
pointed CSVFormat.java at printWithEscapes(CharSequence,Appendable), not at the Reader
overload the commit changed. A subject writes the one type that tells the overloads apart,
so the written types need only appear in the declared list, in order; an overload named so
is taken only when it is the one that fits (its exact list first).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from processors.qualified_names import declared_parameters
from streams.stores.views.symbol_spans import Declared

if TYPE_CHECKING:
    from query_api.retrieval.hit_details import QueryTerms


def typed_overload(symbols: Sequence[Declared], terms: QueryTerms) -> Declared | None:
    """The one overload of a name the query writes with parameter types that those types fit
    (fitting_overload); None when the name has no overloads here, or none or several fit."""
    for name, written in terms.parameters:
        overloads = [
            symbol
            for symbol in symbols
            if symbol.name.lower() == name and declared_parameters(symbol.fq_name) is not None
        ]
        if len(overloads) >= 2 and (found := fitting_overload(overloads, written)) is not None:
            return found
    return None


def fitting_overload(
    overloads: Sequence[Declared], written: Collection[tuple[str, ...]]
) -> Declared | None:
    """Of `overloads`, the one declaring exactly one of the `written` type lists, else the
    one whose list holds one of them in order; None when none or several fit."""
    declared = [(symbol, declared_parameters(symbol.fq_name)) for symbol in overloads]
    exact = [s for s, types in declared if types is not None and types in written]
    fitting = [
        s for s, types in declared if types is not None and any(_holds(types, w) for w in written)
    ]
    for found in (exact, fitting):
        if len(found) == 1:
            return found[0]
    return None


def _holds(declared: tuple[str, ...], written: tuple[str, ...]) -> bool:
    """Whether `declared` holds every type of `written`, in order (written is no empty list)."""
    if not written:
        return False
    rest = iter(declared)
    return all(any(kind == held for held in rest) for kind in written)
