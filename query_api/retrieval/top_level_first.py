"""A definition question for a name declared both at a module's top level and as members
(`where is createMachine defined`: `export function createMachine` in createMachine.ts, and
`createMachine` as a property of setup.ts's `SetupReturn` interface and a method of the object
`setup()` returns) is asked about the top-level declaration first.

Every file declaring the name is lifted to the head of the answer in the ranking's order
(defining_files, declared_first), and a file holding the name in a type's signature and a
builder's body as well outranks the one declaring it: QA on statelyai/xstate ranked setup.ts
above createMachine.ts, and xstate-store's types.ts (`StoreLogicCreator.createStore`) above
store.ts (`export function createStore`). A name the query qualifies (`setup.createMachine`)
or gives a member's kind (`the createMachine method`) is the member asked for: not here.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import PurePosixPath

from processors.symbols.languages.js_ts import JS_EXTENSIONS
from query_api.retrieval.definition_sites import asked_kinds, defined_name
from streams.stores.views.symbols import SymbolRow, symbols_named

_LOOKUP = 200  # declarations of the name read, as defining_files reads them
_QUALIFIED = re.compile(r"\.|::|#")
_MODULE_STEMS = frozenset({"__init__", "index", "mod"})  # a folder's own module


def top_level_declaring(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The files declaring at their top level the name a definition query asks for, when
    others declare it only as a member (module doc); else none."""
    name = defined_name(query)
    if name is None or _QUALIFIED.search(name):
        return set()
    kinds = asked_kinds(query)
    rows = [
        row
        for row in symbols_named(conn, repo_id, [name], _LOOKUP, _LOOKUP)
        if row.name == name and (not kinds or row.kind in kinds)
    ]
    top = {row.path for row in rows if top_level(row)}
    members = {row.path for row in rows} - top
    return top if top and members else set()


def top_level(row: SymbolRow) -> bool:
    """Whether a declaration is its module's own, not a member of another declaration: its
    qualified name (less an overload's parameter list) is its name alone (TypeScript,
    JavaScript) or its module's qualifying it (Python's `pkg.m.run`, Go's package `p.X`)."""
    qualified = row.fq_name.split("(", 1)[0]
    owner = qualified[: -len(row.name)].rstrip(".") if qualified.endswith(row.name) else None
    if owner is None:
        return False
    if not owner:
        return True
    path = PurePosixPath(row.path)
    if path.suffix in JS_EXTENSIONS:  # a module's own names go unqualified
        return False
    parts = [*path.parent.parts, *([] if path.stem in _MODULE_STEMS else [path.stem])]
    module = ".".join(parts)
    return module == owner or module.endswith("." + owner) or path.parent.name == owner
