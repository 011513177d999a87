"""The files a question asks for by their language: `where is the CSS for the HTML report`,
`which JavaScript file handles the keyboard shortcuts`.

A project written in one language keeps a few files in another beside it (a Python tool's
HTML report writes its own stylesheet and script), and a question naming that language asks
for them: QA on nedbat/coveragepy ranked coverage/html.py first for both questions above (its
`css_class`, its report code), style.scss third and coverage_html.js fourth. Where the
repository holds few files of the language (MAX_SIDE_FILES, tests left out) those holding the
most of the question's other words are named, at most MAX_LANGUAGE_FILES; a language the
project is mostly written in names none (every file would be one), nor does a change request.
"""

from __future__ import annotations

import re
import sqlite3

from processors.path_roles import Role, role_of
from processors.query_mentions import phrase_query
from processors.tokenizer import STOP_WORDS, tokenize
from streams.stores.views.read import get_content, paths_matching

# a language's name in a question, and the extensions of its files
_LANGUAGES = {
    "javascript": (".js", ".mjs", ".cjs"),
    "js": (".js", ".mjs", ".cjs"),
    "css": (".css", ".scss", ".sass", ".less"),
    "scss": (".scss", ".sass"),
    "sass": (".scss", ".sass"),
    "stylesheet": (".css", ".scss", ".sass", ".less"),
    "stylesheets": (".css", ".scss", ".sass", ".less"),
}
_QUESTION = re.compile(r"^\s*(?:where\s+(?:is|are)|which|show\s+me|find|open)\b", re.I)
_NOT_SUBJECT = frozenset({"where", "which", "show", "me", "find", "open", "file", "files", "code"})
MAX_SIDE_FILES = 8  # more, and the project is written in the language: no file is the one
MAX_LANGUAGE_FILES = 3
_LOOKUP = 100
# a word whole: a code name holding a language's name (`extra_css`, `app.js`) names none
_WORD = re.compile(r"(?<![\w.$-])[a-z0-9]+(?![\w$]|[.-]\w)")
_FOLDER_WORD = 4  # a subject word a path holds inside a name (`html` of `htmlfiles/`)


def language_files(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The files of the language a question names (`the CSS for the HTML report`), those
    holding the most of its other words, in a repository holding few files of it; none for
    another query."""
    if _QUESTION.match(query) is None:
        return set()
    words = _WORD.findall(query.casefold())  # `JavaScript` whole, not `java script`
    named = [w for w in words if w in _LANGUAGES]
    if not named:
        return set()
    extensions = _LANGUAGES[named[0]]
    subject = {w for w in words if w not in STOP_WORDS and w not in _NOT_SUBJECT} - set(named)
    found = sorted(
        {
            path
            for ext in dict.fromkeys(e.lstrip(".") for e in extensions)
            for path in paths_matching(conn, repo_id, phrase_query((ext,), "path_terms"), _LOOKUP)
            if path.casefold().endswith(extensions) and role_of(path) != Role.TEST
        }
    )
    if not found or len(found) > MAX_SIDE_FILES:
        return set()
    held = {path: _held(conn, repo_id, path, subject) for path in found}
    best = max(held.values())
    chosen = {path for path in found if held[path] == best}
    # the source's file over a doc's copy of it (doc/sample_html/coverage_html_cb_*.js)
    source = {path for path in chosen if role_of(path) == Role.SOURCE}
    chosen = source or chosen
    return chosen if len(chosen) <= MAX_LANGUAGE_FILES else set()


def _held(conn: sqlite3.Connection, repo_id: str, path: str, subject: set[str]) -> int:
    """How many of `subject`'s words `path` holds in its path (inside a name, for a word of
    _FOLDER_WORD letters or more) or its text."""
    row = get_content(conn, repo_id, path)
    text = set(tokenize(row.body)) if row is not None else set()
    folded = path.casefold()
    return sum(w in text or (len(w) >= _FOLDER_WORD and w in folded) for w in subject)
