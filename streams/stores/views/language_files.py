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
# an HTML template's extensions, for a question naming HTML and templates: `html` alone is a
# subject as often (`where is the HTML report written`)
_TEMPLATES = (".html", ".htm", ".jinja", ".jinja2", ".j2")
_TEMPLATE_WORDS = frozenset({"template", "templates"})
_DOC_FOLDERS = frozenset({"doc", "docs", "documentation", "site", "_site"})
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
    if _TEMPLATE_WORDS.intersection(words) and "html" in words:  # `the HTML templates`
        named = ["html", *_TEMPLATE_WORDS.intersection(words)]
    if not named:
        return set()
    extensions = _LANGUAGES.get(named[0], _TEMPLATES)
    subject = {w for w in words if w not in STOP_WORDS and w not in _NOT_SUBJECT} - set(named)
    found = sorted(
        {
            path
            for ext in dict.fromkeys(e.lstrip(".") for e in extensions)
            for path in paths_matching(conn, repo_id, phrase_query((ext,), "path_terms"), _LOOKUP)
            if path.casefold().endswith(extensions) and role_of(path) != Role.TEST
        }
    )
    # the project's own files of it are few; copies a doc keeps (doc/sample_html/: the
    # report's output) are not counted where there are such
    side = [path for path in found if not _in_docs(path)] or found
    if not side or len(side) > MAX_SIDE_FILES:
        return set()
    held = {path: _held(conn, repo_id, path, subject) for path in found}
    best = max(held.values())
    chosen = {path for path in found if held[path] == best}
    # the source's file over a doc's copy of it (doc/sample_html/coverage_html_cb_*.js)
    chosen = {path for path in chosen if not _in_docs(path)} or chosen
    return chosen if len(chosen) <= MAX_LANGUAGE_FILES else set()


def _in_docs(path: str) -> bool:
    """Whether `path` lies in a documentation folder (doc/, docs/): an HTML template is a
    doc by its role wherever it is, so the folder tells the project's own files."""
    return bool(_DOC_FOLDERS.intersection(path.casefold().split("/")[:-1]))


def _held(conn: sqlite3.Connection, repo_id: str, path: str, subject: set[str]) -> int:
    """How many of `subject`'s words `path` holds in its path (inside a name, for a word of
    _FOLDER_WORD letters or more) or its text; a file in a docs folder by its path alone (a
    doc's copy of the report's output holds the report's words, and is not what is asked)."""
    row = None if _in_docs(path) else get_content(conn, repo_id, path)
    text = set(tokenize(row.body)) if row is not None else set()
    folded = path.casefold()
    # in the path in either number: `docs` is doc/_static/
    stems = {w: w.removesuffix("s") for w in subject}
    return sum(w in text or (len(w) >= _FOLDER_WORD and stems[w] in folded) for w in subject)
