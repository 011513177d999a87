"""A name declared only as a member of a TypeScript type (`setValue: UseFormSetValue<T>;` in
`type UseFormReturn = {...}`) is implemented by a function a factory declares in its body and
returns (`const setValue: UseFormSetValue<T> = (name, value) => ...` inside
`createFormControl`). The symbols keep nothing a function declares inside itself, so a
definition query lifted the type alone: QA on react-hook-form/react-hook-form, `where is
setValue defined` ranked src/types/form.ts first and logic/createFormControl.ts, implementing
it, third; `where is the subscribe function implemented` pointed utils/createSubject.ts at its
type's `subscribe:` member, not at the `const subscribe = (observer) =>` below it. The files
implementing it go first (defining_files.implementing_bodies; the ladder lifts them), each
hit at that function (definition_sites).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import PurePosixPath

from processors.symbols.languages.js_ts import JS_EXTENSIONS
from query_api.retrieval.users_first import COMMENT_LINE
from streams.stores.views.symbols import SymbolRow, symbols_named

MEMBER_KINDS = frozenset({"Property", "Field", "Method"})
_TYPE_KINDS = frozenset({"Other", "Interface", "Type"})  # `type X = {...}` is Other
_LOOKUP = 200  # owners of the members read


def function_body_line(body: str, name: str) -> int | None:
    """The first line outside comments declaring `name` as a function in words (`const name
    = (`, `const name: Type<T> =` and `async (` on the next line, `function name(`), or None."""
    quoted = re.escape(name)
    declaring = re.compile(
        rf"(?<![\w$.])(?:(?:const|let|var)\s+{quoted}\s*(?::(?:[^=;{{}}]|=>)*?)?=(?![>=])\s*"
        rf"(?:async\b|function\b|[(<]|[\w$]+\s*=>)|function\s*\*?\s*{quoted}\s*[(<])"
    )
    lines = body.split("\n")
    for found in declaring.finditer(body):
        n = body.count("\n", 0, found.start()) + 1
        if not COMMENT_LINE.match(lines[n - 1]):
            return n
    return None


def type_members(conn: sqlite3.Connection, repo_id: str, rows: list[SymbolRow]) -> bool:
    """Whether every one of `rows` is a member of a type alias or an interface (a signature,
    no body) in a TS/JS file."""
    owners: dict[tuple[str, str], SymbolRow | None] = {}
    for row in rows:
        owner = row.fq_name.rpartition(".")[0]
        if row.kind not in MEMBER_KINDS or not owner:
            return False
        if PurePosixPath(row.path).suffix.casefold() not in JS_EXTENSIONS:
            return False
        owners[(row.path, owner)] = None
    simple = sorted({owner.rpartition(".")[2] for _, owner in owners})
    for declared in symbols_named(conn, repo_id, simple, _LOOKUP, _LOOKUP):
        if (declared.path, declared.fq_name) in owners:
            owners[(declared.path, declared.fq_name)] = declared
    return all(row is not None and row.kind in _TYPE_KINDS for row in owners.values())
