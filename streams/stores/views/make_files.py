"""The Makefile a question about make targets asks for: `which make target runs the tests`.

Such a question names no file, and a Makefile holds few of its words: QA on nedbat/coveragepy
ranked igor.py and control.py first (`make_env_id`, `_make_aliases`) and its Makefile, whose
`test:` rule runs the suite, outside the first ten. The Makefiles nearest the root are named
(the hit then points at the rule: query_api/retrieval/make_targets.py).
"""

from __future__ import annotations

import re
import sqlite3

from streams.stores.views.read import files_with_path_words

_ASKS_TARGET = re.compile(
    r"^\s*(?:where|which|what|how|show\s+me|find)\b.*"
    r"\b(?:make|makefile)\s+(?:targets?|rules?|recipes?)\b",
    re.IGNORECASE,
)
_NAMES = frozenset({"makefile", "gnumakefile"})
_LOOKUP = 50


def makefile_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The Makefiles nearest the root, for a question asking for a make target; none for
    another query."""
    if _ASKS_TARGET.match(query) is None:
        return []
    found = [
        path
        for path in files_with_path_words(conn, repo_id, "makefile", _LOOKUP)
        if path.rpartition("/")[2].casefold() in _NAMES
    ]
    if not found:
        return []
    depth = min(path.count("/") for path in found)
    return [path for path in found if path.count("/") == depth]
