"""A file declaring a name that uses it itself is one of its users.

In Go a package's files call each other's functions with no import, and a file mostly calls
its own: on valyala/fasthttp `who uses normalizeHeaderKey` placed header_timing_test.go,
fuzz_test.go and http_test.go first (the users outside the declaring file, all tests) and
header.go after them, though nine of its functions call it. So the declaring files whose
other declarations reference the name are users too, after the other files' code and before
the tests (name_users.py). Only for a name of several words (users_first.distinctive): a
one-word name referenced in its own file (`Close`) is as often another type's.
"""

from __future__ import annotations

from collections.abc import Sequence

from streams.stores.views.symbols import ReferenceRow, SymbolRow


def own_file_users(
    refs: Sequence[ReferenceRow], declared: Sequence[SymbolRow]
) -> dict[str, list[str]]:
    """The files of `declared` whose other declarations reference the name (`refs`: its
    references), each with those declarations; a declaration referencing itself (recursion)
    is no user."""
    own = {row.path for row in declared}
    itself = {row.fq_name for row in declared}
    out: dict[str, list[str]] = {}
    for ref in refs:
        if ref.path in own and ref.symbol and ref.symbol not in itself:
            symbols = out.setdefault(ref.path, [])
            if ref.symbol not in symbols:
                symbols.append(ref.symbol)
    return out
