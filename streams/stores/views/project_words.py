"""The words that name the project itself: its name is a folder of most of its source paths
(src/flake8/..., packages/middy/...), so a query saying it (`how does flake8 read the
--output-file option`) matched every such path and lifted the package's index file, called by
that folder's name (src/flake8/__init__.py first, every hit `path-name-match`). The name says
which project, not which file: keyword search neither boosts a file called by it nor gives a
`path-name-match` reason for it alone (search.py).

The project's name is the repository's id (a checkout's folder name), its root manifest's
package name (pyproject.toml, setup.cfg, package.json, Cargo.toml) and the first word of its
root README's title (entry_files.title_names).
"""

from __future__ import annotations

import re
import sqlite3

from processors.tokenizer import STOP_WORDS, tokenize
from streams.stores.views.entry_files import title_names
from streams.stores.views.manifest_names import manifest_names
from streams.stores.views.read import files_with_path_words, get_content

_README = re.compile(r"^readme(?:\.\w+)?$", re.IGNORECASE)
_LOOKUP = 200


def project_words(conn: sqlite3.Connection, repo_id: str) -> frozenset[str]:
    """The tokens of the project's names (module doc), stop words left out."""
    names = [repo_id.rpartition("/")[2]]
    names += [name.rpartition("/")[2] for name in manifest_names(conn, repo_id)]
    for path in files_with_path_words(conn, repo_id, "readme", _LOOKUP):
        row = get_content(conn, repo_id, path) if "/" not in path and _README.match(path) else None
        if row is not None:
            names.extend(title_names(row.body))
    return frozenset(tok for name in names for tok in tokenize(name)) - STOP_WORDS
