"""Search reasons as an answer shows them (hit_details.enrich and bundle entries): a
`symbol:` reason names its declaration as code imports it, without the parameter types the
symbol views keep for overloads."""

from __future__ import annotations

from collections.abc import Sequence

from processors.symbols.languages.python import import_name
from query_api.symbols.overloads import declared_name


def display_reason(reason: str, path: str, packages: set[str]) -> str:
    """A reason as an answer shows it: a `symbol:` reason names its declaration as code
    imports it, an overload without the types that tell it from its siblings in the symbol
    views (click's `progressbar(*,int,str|None,bool,...)`: the hit's lines show which)."""
    if reason.startswith("symbol:"):
        fq = import_name(reason[len("symbol:") :], path, packages)
        return "symbol:" + declared_name(fq)
    return reason


def display_reasons(reasons: Sequence[str], path: str, packages: set[str]) -> list[str]:
    """`reasons` as shown (display_reason), each once: two overloads read the same."""
    return list(dict.fromkeys(display_reason(r, path, packages) for r in reasons))
