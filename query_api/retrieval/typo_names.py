"""A name written as code that the repository declares nowhere, one edit away from the one
declared name alike, is read as that name.

An agent types a name from memory: `where is ProgresBar defined`. Search matched it whole
nowhere, so it answered files holding its words, and the note said no hit declares it: QA on
console-rs/indicatif ranked iter.rs's `pub progress: ProgressBar` first and src/progress_bar.rs
seventh. A definition or users query's name (code: a capital inside, an underscore; six
characters at least) that no file declares, alike but for case either (declared_spelling),
is read as the declared name one letter added, left out, replaced or two swapped from it,
when exactly one is; the answer's note says so. A declared name only extending the one
written (`NOQA_INLINE_REGEX` of `NOQA_INLINE_REGEXP`) is left to near_names.py's note.
"""

from __future__ import annotations

import re
import sqlite3

from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.users_first import last_part, used_name
from streams.stores.views.symbol_decls import REPO_NUMBER

MIN_LENGTH = 6  # shorter names are one edit from too many others
_CODE = re.compile(r"[a-z0-9][A-Z]|_")  # a capital inside a name, or an underscore


def one_edit_apart(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one letter added, left out or replaced, or two neighbours
    swapped (not when they are equal)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
        return len(diff) == 1 or (swapped and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    at = next((i for i, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[at:] == long[at + 1 :]


def typo_spelling(conn: sqlite3.Connection, repo_id: str, query: str) -> tuple[str, str] | None:
    """(the name as written, the declared name it is read as) for a query whose name no file
    declares and which is one edit from exactly one declared name; None otherwise."""
    name = defined_name(query) or used_name(query)
    if name is None:
        return None
    written = last_part(name)
    if len(written) < MIN_LENGTH or not _CODE.search(written) or _declared(conn, repo_id, written):
        return None
    rows = conn.execute(
        f"""SELECT DISTINCT name FROM symbol_names
            WHERE repo = {REPO_NUMBER} AND length(name) BETWEEN ? AND ?
              AND substr(name, 1, 1) = ?""",
        (repo_id, len(written) - 1, len(written) + 1, written[0]),
    )
    near = [str(found) for (found,) in rows if one_edit_apart(written, str(found))]
    if len(near) != 1 or near[0].startswith(written):  # `REGEX` of `REGEXP`: near_names.py
        return None
    return written, near[0]


def _declared(conn: sqlite3.Connection, repo_id: str, name: str) -> bool:
    """Whether the repository declares `name`, as written or but for case and underscores."""
    row = conn.execute(
        f"""SELECT 1 FROM symbol_names WHERE repo = {REPO_NUMBER}
            AND replace(name, '_', '') = ? COLLATE NOCASE LIMIT 1""",
        (repo_id, name.replace("_", "")),
    ).fetchone()
    return row is not None


def respelled_query(query: str, written: str, declared: str) -> str:
    """`query` with its last writing of `written` as `declared`."""
    found = list(re.finditer(rf"(?<![\w$]){re.escape(written)}(?![\w$])", query))
    if not found:
        return query
    at = found[-1]
    return query[: at.start()] + declared + query[at.end() :]


def typo_note(written: str, declared: str) -> str:
    """What an answer read through a respelled name says."""
    return f"no file declares {written}; read as {declared}, the declared name one letter from it"
