"""The files defining a command-line flag a question names: `where is the --show-missing flag`.

A long option is written whole in the string literal declaring it (optparse's, argparse's or
click's `"--show-missing"`), and that file is what the question asks for; its words alone are
no help: QA on nedbat/coveragepy ranked lab/show_pyc.py first (a path holding `show`) above
cmdline.py, declaring `"-m", "--show-missing"`. So a question naming a flag places the files
writing it in quotes, tests and docs left out, when at most MAX_FLAG_FILES do; a change request
(`Fix --show-missing with branches`) is ranked as before.
"""

from __future__ import annotations

import re
import sqlite3

from processors.path_roles import Role, role_of
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from streams.stores.views.read import get_content, paths_matching

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])", re.IGNORECASE)
_QUESTION = re.compile(r"^\s*(?:where|which|what|how|who|show\s+me|find|open|--)", re.IGNORECASE)
MAX_FLAG_FILES = 3  # more writing it: a flag every tool passes along, not one declared here
_LOOKUP = 50


def flag_files(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The files writing the first flag a question names in a string literal (`"--x"`),
    of the roles other than tests and docs; none for another query, or when more than
    MAX_FLAG_FILES do."""
    if _QUESTION.match(query) is None:
        return set()
    flag = _FLAG.search(query)
    if flag is None:
        return set()
    words = tuple(tokenize(flag.group()))
    quoted = re.compile(r"""["'`]""" + re.escape(flag.group()) + r"""(?=["'`=\s])""")
    writing = set()
    for path in paths_matching(conn, repo_id, phrase_query(words, "body_terms"), _LOOKUP):
        if role_of(path) in (Role.TEST, Role.DOC):
            continue
        row = get_content(conn, repo_id, path)
        if row is not None and quoted.search(row.body):
            writing.add(path)
    return writing if len(writing) <= MAX_FLAG_FILES else set()
