"""Of the declarations a definition query means, the contract the others implement: an
abstract method, or one an interface or trait declares.

`where is getNumberType defined` on jackson-core: JsonParser declares it abstract, and
ParserBase, JsonParserDelegate and FilteringParserDelegate override it (`@Override`). Search
ranked ParserBase first and JsonParser, where the method is declared and documented, third.
A name overridden in more files than defining_files lifts (MAX_DEFINING) lifted none of them,
though the one declaration the others implement is what such a question means first.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

from streams.stores.views.symbols import SymbolRow, symbols_named

MAX_CONTRACTS = 2  # more files declaring the name abstract: none of them is the contract
INTERFACE_KIND = "Interface"  # an interface, a trait, a protocol
_LOOKUP = 200  # owners' declarations read
# a declaration without a body for others to give one, and one giving another's its body
_ABSTRACT = re.compile(r"(?<![\w$])(?:abstract|@abstractmethod|@abc\.abstractmethod)(?![\w$])")
_OVERRIDE = re.compile(r"(?<![\w$])(?:@Override|override)(?![\w$])")


def contract_files(
    conn: sqlite3.Connection, repo_id: str, declarations: Sequence[SymbolRow]
) -> set[str]:
    """The files of `declarations` declaring the contract the others implement (at most
    MAX_CONTRACTS files), when some of them are implementations; else none."""
    owners = _interface_owners(conn, repo_id, declarations)
    contracts = {row.path for row in declarations if is_contract(row, owners)}
    implementing = {row.path for row in declarations} - contracts
    if not implementing or not 0 < len(contracts) <= MAX_CONTRACTS:
        return set()
    return contracts


def is_contract(row: SymbolRow, interface_owners: set[tuple[str, str]]) -> bool:
    """Whether a declaration is one others implement: abstract, or a member of an interface
    or trait (`interface_owners`: their (path, fq name)), and no override itself."""
    if _OVERRIDE.search(row.signature):
        return False
    return bool(_ABSTRACT.search(row.signature)) or (row.path, _owner(row)) in interface_owners


def _owner(row: SymbolRow) -> str:
    return row.fq_name.split("(", 1)[0].rpartition(".")[0]


def _interface_owners(
    conn: sqlite3.Connection, repo_id: str, declarations: Sequence[SymbolRow]
) -> set[tuple[str, str]]:
    """(path, fq name) of the interfaces and traits owning any of `declarations`."""
    owned = {(row.path, _owner(row)) for row in declarations if _owner(row)}
    names = sorted({fq.rpartition(".")[2] for _, fq in owned})
    if not names:
        return set()
    rows = symbols_named(conn, repo_id, names, _LOOKUP, _LOOKUP)
    return {
        (row.path, row.fq_name)
        for row in rows
        if row.kind == INTERFACE_KIND and (row.path, row.fq_name) in owned
    }
