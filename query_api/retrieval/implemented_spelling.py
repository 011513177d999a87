"""An implementers query keeps its name as written when the one spelling the repository
declares alike is no type.

Search reads a users query's name as the repository declares it when it declares none as
written but one alike but for case (defining_files.declared_spelling: `what calls
splitGraphemes` for rich's `split_graphemes`). A trait of the standard library is
implemented, never declared, and its methods share its name in lower case: QA on
console-rs/indicatif, `what implements Drop` was read as `what implements drop`, three `fn
drop` methods being the one spelling declared, and placed none of the `impl Drop for` blocks.
Only a type can be implemented or extended, so only a type's spelling is taken.
"""

from __future__ import annotations

import sqlite3

from query_api.retrieval.users_first import asks_implementers, last_part, used_name
from streams.stores.views.symbols import symbols_named

_TYPE_KINDS = frozenset({"Type", "Interface", "Enum", "Other"})  # what may be implemented
_LOOKUP = 200  # declarations of the spelling read


def implemented_spelling(conn: sqlite3.Connection, repo_id: str, written: str, spelled: str) -> str:
    """`spelled`, the query `written` with its name as the repository declares it; `written`
    itself when it asks for implementers and the name so spelled declares no type."""
    if spelled == written or not asks_implementers(written):
        return spelled
    name = used_name(spelled)
    if name is None:
        return spelled
    rows = symbols_named(conn, repo_id, [last_part(name)], _LOOKUP, _LOOKUP)
    return spelled if any(row.kind in _TYPE_KINDS for row in rows) else written
