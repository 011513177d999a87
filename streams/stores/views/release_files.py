"""The files a release request changes: `Release 5.0.4`, `bump version to 7.4.0`, `v2.1.0`,
`prep for 7.11.3` (QA on nedbat/coveragepy, whose release commits say so).

Such a commit writes the new version where the project declares its own (a Python package's
`__version__`, a manifest's `version` field) and, often, a page of release notes named for the
version. None of them holds the request's words: QA on PyCQA/flake8, `Release 5.0.4` ranked
.pylintrc, checker.py and api/legacy.py first and src/flake8/__init__.py (`__version__ =
"7.3.0"`), the file every release commit changed, outside the first ten. The localisation
benchmark leaves release commits out (query_api/evaluation/requests.py), so this form is
measured on no benchmark case.
"""

from __future__ import annotations

import re
import sqlite3

from processors.path_roles import Role, role_of
from streams.stores.views.read import files_with_path_words, get_content
from streams.stores.views.symbols import symbols_named

# a request that is a release and nothing else, after a conventional-commit type at most
_RELEASE = re.compile(
    r"""^\s*(?:[a-z]+(?:\([^()\n]{1,40}\))?!?:\s*)?
    (?:release|cut\s+(?:the\s+)?release
      |prep(?:are)?\s+(?:(?:the\s+)?release(?:\s+of)?|for(?:\s+(?:the\s+)?release(?:\s+of)?)?)
      |(?:bump|set|update)\s+(?:the\s+)?version\s+to|version\s+bump\s+to|bump\s+to)\s+
    v?(?P<version>\d+\.\d+(?:\.\d+)?(?:[-.+]?[A-Za-z0-9]+)*)\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
VERSION_NAMES = ("__version__",)  # a module's own version, as Python writes it
# a manifest declaring the project's version as a literal (not `attr: pkg.__version__`)
_MANIFESTS = frozenset({"package.json", "cargo.toml", "pyproject.toml", "setup.cfg", "setup.py"})
_LITERAL_VERSION = re.compile(r"""^\s*["']?version["']?\s*[:=]\s*["']?v?\d""", re.MULTILINE)
MAX_RELEASE_FILES = 4  # more declare a version (a monorepo's packages): none is the one
_LOOKUP = 50


def released_version(query: str) -> str | None:
    """The version a release request names (`5.0.4` of `Release 5.0.4`), else None."""
    found = _RELEASE.match(query)
    return None if found is None else found.group("version")


def release_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The files a release request changes: those declaring the project's version (a
    module's `__version__`, a manifest's literal `version` within one folder of the root)
    and the release notes named for the version (docs/release-notes/5.0.4.rst), at most
    MAX_RELEASE_FILES of each; none for another query."""
    version = released_version(query)
    if version is None:
        return []
    declaring = {
        row.path
        for row in symbols_named(conn, repo_id, VERSION_NAMES, _LOOKUP, _LOOKUP)
        if row.name in VERSION_NAMES and role_of(row.path) == Role.SOURCE
    }
    for name in _MANIFESTS:
        for path in files_with_path_words(conn, repo_id, name, _LOOKUP):
            named = path.rpartition("/")[2].casefold() == name
            if path.count("/") > 1 or not named or role_of(path) != Role.CONFIG:
                continue  # an example's manifest (example-plugin/setup.py) is not the project's
            row = get_content(conn, repo_id, path)
            if row is not None and _LITERAL_VERSION.search(row.body):
                declaring.add(path)
    notes = [
        path
        for path in files_with_path_words(conn, repo_id, version, _LOOKUP)
        if path.rpartition("/")[2].rpartition(".")[0] == version and role_of(path) == Role.DOC
    ]
    out = sorted(declaring) if len(declaring) <= MAX_RELEASE_FILES else []
    return out + (sorted(notes) if len(notes) <= MAX_RELEASE_FILES else [])
