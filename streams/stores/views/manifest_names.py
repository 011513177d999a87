"""The package names a repository's root manifests give the project (`"name":
"react-hook-form"` in package.json, `name = "flake8"` in pyproject.toml): a name it goes by,
read by project_words (keyword search) and entry_files (`what is react-hook-form`, whose
README opens with a logo and names it in no title)."""

from __future__ import annotations

import re
import sqlite3

from streams.stores.views.read import get_content

_MANIFESTS = ("pyproject.toml", "setup.cfg", "package.json", "Cargo.toml")
# `name = "flake8"` (TOML, setup.cfg) or `"name": "@middy/core"` (package.json), read in a
# manifest's opening only: its own name comes first
_NAME = re.compile(r"""^\s*"?name"?\s*[=:]\s*["']?(?P<name>[@\w./-]{2,64})""", re.MULTILINE)
_OPENING_CHARS = 4000


def manifest_names(conn: sqlite3.Connection, repo_id: str) -> list[str]:
    """The package names the root manifests declare, as written (`@middy/core`)."""
    names = []
    for manifest in _MANIFESTS:
        row = get_content(conn, repo_id, manifest)
        found = _NAME.search(row.body, 0, _OPENING_CHARS) if row is not None else None
        if found is not None:
            names.append(found["name"])
    return names
