"""A TypeScript or JavaScript module exporting a declaration of its own under another name
(`export { buildStore as INTERNAL_buildStoreRev2 }`, no `from`): the name is that module's,
though no declaration carries it. Read by defining_files (the module defines the name) and by
definition_sites' note (which says so rather than only that no hit declares it)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from processors.symbols.languages.js_ts import JS_EXTENSIONS


def exported_local(path: str, body: str, name: str) -> str | None:
    """The local name `body` (the file at `path`) exports as `name` in an export list of its
    own, or None (not a TS/JS file, no such export, or one re-exporting another module's)."""
    if PurePosixPath(path).suffix.casefold() not in JS_EXTENSIONS:
        return None
    renames = re.compile(
        rf"\bexport\s*\{{[^}}]*?\b([\w$]+)\s+as\s+{re.escape(name)}\b[^}}]*\}}(?!\s*from)"
    )
    found = renames.search(body)
    return found.group(1) if found else None
