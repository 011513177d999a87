"""`where is the man page`: the project's manual pages, named by their section's extension
(`hyperfine.1`, troff) or its sources' (`eza.1.md`, `fd.1.scd`, `git.1.adoc`), wherever they
are kept. Their bodies are troff or markdown that seldom write `man page`, and `page` is no
file's name: QA on sharkdp/hyperfine answered .github/workflows/CICD.yml's `# Man page`
comment first and doc/hyperfine.1 nowhere."""

from __future__ import annotations

import re
import sqlite3

from processors.query_mentions import phrase_query
from streams.stores.views.read import paths_matching

LOOKUP = 2000  # rows a section's path read may return
_SECTIONS = "123456789"
# a question for the man page alone, of no subject (`where is the man page for --icons` is
# a docs question about the flag)
_MAN_QUESTION = re.compile(
    r"^\s*(?:where\s+(?:is|are|do\s+i\s+find|can\s+i\s+find)|show\s+me|open|find"
    r"|which\s+files?\s+(?:is|are))\s+(?:the\s+|our\s+)?"
    r"(?:man(?:ual)?\s*pages?|manpages?|manuals?)(?:\s+files?)?\s*\??\s*$",
    re.IGNORECASE,
)
# a section's extension (`.1`, `.3p`), the source format's after it when written in one
_MAN_NAME = re.compile(r"^[\w.+-]+\.[1-9][a-z]{0,2}(?:\.(?:md|ronn|adoc|scd|rst|txt|in))?$")


def is_man_page(path: str) -> bool:
    """Whether `path` names a man page by its section's extension (`doc/hyperfine.1`)."""
    return _MAN_NAME.match(path.rpartition("/")[2].casefold()) is not None


def man_pages(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The man pages `where is the man page` asks for, by path; none for another query."""
    if _MAN_QUESTION.match(query) is None:
        return []
    found = {
        path
        for section in _SECTIONS
        for path in paths_matching(conn, repo_id, phrase_query((section,), "path_terms"), LOOKUP)
        if is_man_page(path)
    }
    return sorted(found)
