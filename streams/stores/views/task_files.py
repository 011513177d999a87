"""The file a task runner reads its tasks from, for a question naming the runner's tasks:
`which nox sessions run the tests` (noxfile.py), `which tox env runs the linters` (tox.ini),
`which gulp task builds the css` (gulpfile.js), `what rake tasks are there` (Rakefile).

Such a question names no file, and the runner's word is in few of its lines (nox's
`@session` decorators say `session`, not `nox`): QA on python-jsonschema/jsonschema, `which
nox sessions run the tests` left noxfile.py out of the first ten, below a vendored suite's
`unittest.TextTestRunner().run(suite)` and cli.py's `def run(`. The runner's files nearest
the root are named, as make_files names the Makefile for a make target.
"""

from __future__ import annotations

import re
import sqlite3

from streams.stores.views.read import files_with_path_words

# a runner's word, the words for its units, and its task files' names (casefolded)
_RUNNERS: dict[str, tuple[str, frozenset[str]]] = {
    "nox": (r"sessions?", frozenset({"noxfile.py"})),
    "tox": (r"env(?:ironment)?s?", frozenset({"tox.ini"})),
    "invoke": (r"tasks?", frozenset({"tasks.py"})),
    "gulp": (r"tasks?", frozenset({f"gulpfile.{e}" for e in ("js", "mjs", "cjs", "ts")})),
    "grunt": (r"tasks?", frozenset({f"gruntfile.{e}" for e in ("js", "cjs", "coffee", "ts")})),
    "rake": (r"tasks?", frozenset({"rakefile", "rakefile.rb"})),
    "just": (r"recipes?", frozenset({"justfile", ".justfile"})),
    "fab": (r"tasks?", frozenset({"fabfile.py"})),
}
_ASKS = re.compile(
    r"^\s*(?:where|which|what|how|show\s+me|find|list)\b.*?\b("
    + "|".join(_RUNNERS)
    + r")\s+(\w+)\b",
    re.IGNORECASE,
)
_LOOKUP = 50


def task_runner_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The task files nearest the root of the runner whose tasks a question asks about;
    none for another query, or a runner the repository keeps no file of."""
    found = _ASKS.match(query)
    if found is None:
        return []
    runner = found.group(1).casefold()
    units, names = _RUNNERS[runner]
    if re.fullmatch(units, found.group(2), re.IGNORECASE) is None:
        return []
    stems = {name.lstrip(".").partition(".")[0] for name in names}
    paths = {
        path
        for stem in stems
        for path in files_with_path_words(conn, repo_id, stem, _LOOKUP)
        if path.rpartition("/")[2].casefold() in names
    }
    if not paths:
        return []
    depth = min(path.count("/") for path in paths)
    return sorted(path for path in paths if path.count("/") == depth)
