"""The locale files of the languages a request names, as keyword search's candidates.

processors/locale_names says why a request's language points at a locale file. Keyword
search reads its candidates from the best BM25 files of each table, and in a repository with
many translated or translating files a locale file whose words the request barely holds can
fall outside that pool, where no boost reaches it: these reads bring it in.
"""

from __future__ import annotations

import sqlite3

from processors.locale_names import locale_weight
from streams.stores.views.read import files_with_path_words

MAX_LOCALE_PATHS = 200  # paths read per language code; the caller keeps its locale files


def named_locale_files(
    conn: sqlite3.Connection, repo_id: str, locales: tuple[frozenset[str], frozenset[str]]
) -> list[str]:
    """The indexed files filed under a language code of `locales` (named_locales), right
    below a locale folder: one path read per code."""
    found: set[str] = set()
    for code in sorted(locales[0]):
        found.update(
            path
            for path in files_with_path_words(conn, repo_id, code, MAX_LOCALE_PATHS)
            if locale_weight(path, locales)
        )
    return sorted(found)
