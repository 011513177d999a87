"""A TypeScript or JavaScript module whose default export is anonymous (`export default
(options) => ...`, `export default async function (`): its importers call it by the file's
own name (`import generateId from './logic/generateId'`), yet no symbol carries that name.
QA on react-hook-form/react-hook-form, whose logic/ and utils/ folders hold one such function
a file: `where is generateId defined` answered src/logic/generateId.ts first with the note
`none of these hits declares generateId`. Read by definition_sites (the hit's lines, the note).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from processors.symbols.languages.js_ts import JS_EXTENSIONS

# an arrow function (its parameters, type parameters, or one bare parameter), an unnamed
# function or class, an object or array literal: not `export default name` (a declaration
# of another name) nor `export default function name(` (declared, so a symbol)
_ANONYMOUS_DEFAULT = re.compile(
    r"^[ \t]*export\s+default\s+(?:async\s+)?"
    r"(?:[(<]|[\w$]+\s*=>|function\s*[*(<]|class\s*(?:\{|extends\b)|[{\[])",
    re.MULTILINE,
)
_INDEX = "index"  # `utils/get/index.ts` is imported as `utils/get`


def anonymous_default_line(path: str, body: str, name: str) -> int | None:
    """The line of the anonymous default export of the TS/JS file at `path`, when its file
    name (its folder's, for an index file) is `name` in any case; else None."""
    file = PurePosixPath(path)
    if file.suffix.casefold() not in JS_EXTENSIONS:
        return None
    stem = file.name.split(".", 1)[0]
    if stem == _INDEX:
        stem = file.parent.name
    if stem.casefold() != name.casefold():
        return None
    found = _ANONYMOUS_DEFAULT.search(body)
    return None if found is None else body.count("\n", 0, found.start()) + 1
