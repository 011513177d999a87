"""The files a query asking for the changelog means: a repository's CHANGES.rst, CHANGELOG.md,
HISTORY.md or NEWS at its root, else one folder down (docs/changelog.rst); or, when the query
names the folder holding one at any depth, that one (a monorepo's packages/app/CHANGELOG.md
for `changelog for the app package`).

`where is the changelog` named no file on pallets/jinja: no file's text holds the word
`changelog` (CHANGES.rst holds `Version 3.1.5`, `Released`), so keyword search found nothing
and the vectors' best passage was under the floor; the answer was an empty one. Those files
are called by what they are, as a file named in a query is (search.keyword_search's tiers).
"""

from __future__ import annotations

import re
import sqlite3

from processors.tokenizer import STOP_WORDS, tokenize
from streams.stores.views.read import files_with_path_words

# a query naming the changelog: `changelog`, `change log`, `release notes`, `CHANGES file`
_ASKED = re.compile(
    r"\b(?:change[\s_-]?logs?|release[\s_-]?notes|(?:changes|history|news)\s+file)\b",
    re.IGNORECASE,
)
# a changelog's file name, less its extension
_NAME = re.compile(r"^(?:changes|changelog|history|news|releases|release[-_]?notes)$")
_NAME_WORDS = ("changes", "changelog", "history", "news", "releases", "notes")
MAX_DEPTH = 1  # folders above a changelog: the root's, or docs/changelog.rst
MAX_CHANGELOGS = 3
_LOOKUP = 200  # paths a name word's phrase read may return


def asks_for_changelog(query: str) -> bool:
    return _ASKED.search(query) is not None


def without_changelog_words(query: str) -> str:
    """`query` less the words naming the changelog (`where is the changelog` -> `where is
    the `): what else it asks."""
    return _ASKED.sub(" ", query)


def is_changelog(path: str) -> bool:
    """Whether `path` is named as a changelog is (CHANGELOG.md, CHANGES.rst, NEWS), or is
    the index of a folder of release notes (release-notes/index.rst)."""
    stem = path.rpartition("/")[2].partition(".")[0]
    return _NAME.match(stem.casefold()) is not None or _notes_index(path) or _release_page(path)


# a folder of release notes, a page per release, and the name of the page listing them:
# QA on PyCQA/flake8 (docs/source/release-notes/index.rst and 83 release pages)
_NOTES_DIR = re.compile(r"^(?:release[-_]?notes|changelogs?)$", re.IGNORECASE)
_INDEX = re.compile(r"^(?:index|readme)$", re.IGNORECASE)
_INDEX_WORDS = ("index", "readme")


def _notes_index(path: str) -> bool:
    folders, _, name = path.rpartition("/")
    folder = folders.rpartition("/")[2]
    stem = name.partition(".")[0]
    return bool(_NOTES_DIR.match(folder) and _INDEX.match(stem))


# a release's page in such a folder, named by its version (changelog/1.3.0.md, v2.0.rst)
_VERSION = re.compile(r"^v?(\d+(?:\.\d+)*)(?:[-_.][\w.-]*)?\.\w+$", re.IGNORECASE)


def _release_page(path: str) -> bool:
    folders, _, name = path.rpartition("/")
    return bool(_NOTES_DIR.match(folders.rpartition("/")[2]) and _VERSION.match(name))


def release_pages(conn: sqlite3.Connection, repo_id: str) -> list[str]:
    """The pages of a changelog folder at the root or one folder down that are named by
    their release (changelog/1.3.0.md), newest first, at most MAX_CHANGELOGS: with no
    index page, the newest releases are the changelog. QA on sinclairzx81/typebox, whose
    changelog/ holds a page per minor release: `where is the changelog` named no file and
    answered src/value/repair/repair.ts first."""
    found = {
        path
        for folder in ("changelog", "changelogs", "release notes")
        for path in files_with_path_words(conn, repo_id, folder, _LOOKUP)
        if _release_page(path) and path.count("/") <= MAX_DEPTH + 1
    }

    def version(path: str) -> tuple[int, ...]:
        written = _VERSION.match(path.rpartition("/")[2])
        return tuple(int(n) for n in written.group(1).split(".")) if written else ()

    return sorted(found, key=lambda p: (-p.count("/"), version(p), p), reverse=True)[
        :MAX_CHANGELOGS
    ]


def notes_indexes(conn: sqlite3.Connection, repo_id: str) -> list[str]:
    """The index pages of the repository's folders of release notes, the shallowest when
    several lie at different depths; one phrase read per folder name and index name."""
    found: set[str] = set()
    for folder in ("release notes", "changelog", "changelogs"):
        for index in _INDEX_WORDS:
            read = files_with_path_words(conn, repo_id, f"{folder} {index}", _LOOKUP)
            found |= {path for path in read if _notes_index(path)}
    top = min((p.count("/") for p in found), default=0)
    return sorted((p for p in found if p.count("/") == top), key=str.casefold)


def holds_changelog(conn: sqlite3.Connection, repo_id: str) -> bool:
    """Whether the repository indexes any changelog, at any depth: a file named as one, a
    folder of release notes' index or a release's page."""
    for word in _NAME_WORDS:
        for path in files_with_path_words(conn, repo_id, word, _LOOKUP):
            if is_changelog(path):
                return True
    return bool(notes_indexes(conn, repo_id) or release_pages(conn, repo_id))


def changelog_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The repository's changelog files when the query asks for its changelog: those of the
    folders the query names (package_changelogs), else those at the root, else those one
    folder down, at most MAX_CHANGELOGS, else the one deeper (_one_deeper); else none."""
    if not asks_for_changelog(query):
        return []
    every: set[str] = set()
    for word in _NAME_WORDS:
        for path in files_with_path_words(conn, repo_id, word, _LOOKUP):
            stem = path.rpartition("/")[2].partition(".")[0].casefold()
            if _NAME.match(stem):
                every.add(path)
    named = package_changelogs(every, query)
    if named:
        return sorted(named, key=str.casefold)[:MAX_CHANGELOGS]
    found = {path for path in every if path.count("/") <= MAX_DEPTH}
    # the root's changelog, when it has one: docs/changes.rst mostly includes it
    top = min((p.count("/") for p in found), default=0)
    shallowest = [p for p in found if p.count("/") == top]
    if not found:  # deeper alone: a folder of release notes' index, else the one there
        indexes = notes_indexes(conn, repo_id)  # (docs/content/news.md)
        if len(indexes) == 1:
            return indexes
        return _one_deeper(every) or release_pages(conn, repo_id)
    return sorted(shallowest, key=str.casefold)[:MAX_CHANGELOGS]


def _one_deeper(changelogs: set[str]) -> list[str]:
    """The shallowest of `changelogs` when it is the only one at its depth, else none: a site's
    docs/content/news.md is the changelog (QA on benoitc/gunicorn: `where is the changelog`
    answered config.py, sync.py and arbiter.py), and one of a monorepo's many package
    changelogs is no more the changelog than another."""
    top = min((p.count("/") for p in changelogs), default=0)
    shallowest = [p for p in changelogs if p.count("/") == top]
    return shallowest if len(shallowest) == 1 else []


def package_changelogs(changelogs: set[str], query: str) -> list[str]:
    """Of `changelogs`, those in a folder the query names, every word of its name (`app`,
    `content-disposition`, `@tinyhttp/cookie`'s `cookie`): a monorepo's packages each keep
    their own, and tinyhttp has none at its root (QA on tinyhttp/tinyhttp: `changelog for the
    app package` ranked packages/app/CHANGELOG.md below four source files of the package)."""
    words = set(tokenize(without_changelog_words(query))) - STOP_WORDS
    named = []
    for path in changelogs:
        folder = path.rpartition("/")[0].rpartition("/")[2]
        folder_words = set(tokenize(folder)) - STOP_WORDS
        if folder_words and folder_words <= words:
            named.append(path)
    return named
