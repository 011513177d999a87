"""The names a TypeScript or JavaScript module exports without declaring them, for its
outline: a declaration of its own exported under another name (`export { _Object_ as Object
}`, no `from`) and a module re-exported as a namespace (`export * as Type from './type'`).

Neither is a declaration, so the symbols hold neither, and an agent outlining the file did
not learn the names its users import (QA on sinclairzx81/typebox: src/type/types/object.ts
outlined `_Object_` and no `Object`; src/index.ts, whose `Type` is the library's API, outlined
nothing). They are read from the stored body when the outline is asked for, as test blocks
are (js_test_blocks.py), each a row on its statement's lines: a rename with the kind of the
declaration it renames, a namespace re-export as a Namespace, its statement the signature.
"""

from __future__ import annotations

import re

from streams.stores.views.symbols import SymbolRow

NAMESPACE_KIND = "Namespace"
OTHER_KIND = "Other"
MAX_EXPORT_ROWS = 1_000  # of one file: a generated module's export list stays bounded
MAX_SIGNATURE_CHARS = 200
# statement openers only (a line's start): an `export {` in a comment or a string is no export
_LOCAL_LIST = re.compile(r"^[ \t]*export\s*(?:type\s*)?\{([^}]*)\}(?!\s*from\b)", re.MULTILINE)
_NAMESPACE = re.compile(
    r"""^[ \t]*export\s*(?:type\s*)?\*\s*as\s+([\w$]+)\s+from\s*(["'])[^"'\n]+\2""", re.MULTILINE
)
_RENAME = re.compile(r"^(?:type\s+)?([\w$]+)\s+as\s+([\w$]+)$")
_SPACE = re.compile(r"\s+")


def is_export_statement(signature: str) -> bool:
    """Whether an outline row's signature is one of these statements (the row is no
    declaration: a file of them alone still declares nothing itself)."""
    return bool(_LOCAL_LIST.match(signature) or _NAMESPACE.match(signature))


def exported_rows(repo_id: str, path: str, body: str, declared: list[SymbolRow]) -> list[SymbolRow]:
    """The rows of `body`'s renamed local exports and namespace re-exports, in line order,
    less those whose exported name the file declares at its top level itself."""
    kinds = {s.fq_name: s.kind for s in declared}
    rows: list[SymbolRow] = []
    for found in _LOCAL_LIST.finditer(body):
        start, end = _lines(body, found.start(), found.end())
        statement = _SPACE.sub(" ", found.group(0).strip())[:MAX_SIGNATURE_CHARS]
        for item in found.group(1).split(","):
            renamed = _RENAME.match(item.strip())
            if renamed is None:
                continue
            local, exported = renamed.groups()
            if exported in (local, "default") or exported in kinds:
                continue
            kind = kinds.get(local, OTHER_KIND)
            rows.append(
                SymbolRow(repo_id, path, exported, exported, kind, start, end, "", statement)
            )
    for found in _NAMESPACE.finditer(body):
        name = found.group(1)
        if name in kinds:
            continue
        start, end = _lines(body, found.start(), found.end())
        statement = _SPACE.sub(" ", found.group(0).strip())[:MAX_SIGNATURE_CHARS]
        rows.append(SymbolRow(repo_id, path, name, name, NAMESPACE_KIND, start, end, "", statement))
    rows.sort(key=lambda r: (r.start_line, r.fq_name))
    return rows[:MAX_EXPORT_ROWS]


def _lines(body: str, start: int, end: int) -> tuple[int, int]:
    first = body.count("\n", 0, start) + 1
    return first, first + body.count("\n", start, end)
