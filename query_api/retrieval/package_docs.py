"""A question asking what a package does (`what does dynblock do`, `what is the hclsimple
package for`) is answered by the file documenting the package: Go's `// Package dynblock
provides ...` comment, a doc.go, the folder's README, a Python `__init__.py`.

Every file of the package holds its name (`package dynblock`), so the ranking is the
package's files in any order, each pointed at its package clause: QA on hashicorp/hcl, `what
does dynblock do` put ext/dynblock/public.go, the one file saying what the package does,
fourth below variables.go, unknown_body.go and expand_body.go.

Java documents a package in its folder's package-info.java, and a question may ask for those
docs by the package's name (`where is the multimap package documented`, `the trie package
Javadoc`): QA on apache/commons-collections ranked six files' `package ...multimap;` clauses
first for `what is the multimap package for`, and Trie.java's for `what does the trie
package do`, with no package-info.java in the first four.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import PurePosixPath

from streams.stores.views.read import files_in_folder_named, get_content

# `what does dynblock do`, `what is the hclsimple package for`, `what is the gohcl package`
_WHAT_DOES = re.compile(
    r"""^\s*(?:
      what\s+(?:does|is)\s+(?:the\s+)?`?([\w.-]+)`?
        (?:\s+(?:package|module|crate|library|extension))?\s+(?:do|for)
      |what\s+is\s+(?:the\s+)?`?([\w.-]+)`?\s+(?:package|module|crate)
    )\s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# `where is the multimap package documented`, `where are the trie package docs`, `Javadoc
# for the bag package`: the package's docs asked for by its name
_PACKAGE_DOCS = re.compile(
    r"""(?:^|\s)(?:
      (?!(?:the|a|an|this|that|our|its|each|every)\s)`?([\w.-]+)`?\s+package(?:'s)?\s+(?:is\s+|are\s+)?(?:documented|docs?|documentation|javadocs?)
      |(?:docs?|documentation|javadocs?)\s+(?:for|of)\s+the\s+`?([\w.-]+)`?\s+package
    )\b""",
    re.IGNORECASE | re.VERBOSE,
)
MAX_FILES = 200  # paths read below the folders named so
_HEAD_LINES = 40  # of a file, read for a package's doc comment
# a file that is a package's documentation by its name, best first
_DOC_NAMES = (
    "package-info.java", "doc.go", "readme.md", "readme.rst", "readme", "__init__.py",
    "mod.rs", "lib.rs", "package.html",
)  # fmt: skip


def asked_package(query: str) -> str | None:
    """The package a `what does X do` question, or one asking for X's package docs, names,
    else None."""
    found = _WHAT_DOES.match(query) or _PACKAGE_DOCS.search(query)
    return next((g for g in found.groups() if g), None) if found is not None else None


def package_doc_files(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The files documenting the package the query asks about, in the folder named for it
    nearest the root: those opening with its doc comment (`// Package dynblock ...`), else
    those named as its documentation (_DOC_NAMES); none for another query or a package no
    folder is named for."""
    name = asked_package(query)
    if name is None:
        return set()
    paths = files_in_folder_named(conn, repo_id, name, MAX_FILES)
    folders = {str(PurePosixPath(p).parent) for p in paths}
    owned = [f for f in folders if PurePosixPath(f).name.casefold() == name.casefold()]
    if not owned:
        return set()
    folder = min(owned, key=lambda f: (f.count("/"), f))
    own = sorted(p for p in paths if str(PurePosixPath(p).parent) == folder)
    comment = re.compile(rf"^\s*(?://|/\*|\*)\s*Package\s+{re.escape(name)}\b", re.IGNORECASE)
    documented = {p for p in own if _opens_with(conn, repo_id, p, comment)}
    if documented:
        return documented
    for doc in _DOC_NAMES:
        named = {p for p in own if PurePosixPath(p).name.casefold() == doc}
        if named:
            return named
    return set()


def _opens_with(
    conn: sqlite3.Connection, repo_id: str, path: str, comment: re.Pattern[str]
) -> bool:
    """Whether one of the first lines of the file at `path` matches `comment`."""
    row = get_content(conn, repo_id, path)
    if row is None:
        return False
    return any(comment.match(line) for line in row.body.split("\n", _HEAD_LINES)[:_HEAD_LINES])
