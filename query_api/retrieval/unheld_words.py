"""A query none of whose words the repository holds as written, searched again with each word
as the repository writes it.

Search matches whole tokens: `deprecate` finds no `deprecated`, and `devstore`, one lower-case
token, no `DevStore` (indexed as `dev` and `store`). QA on pmndrs/jotai: the commit subject
`deprecate devstore` answered `hits: []`, 'no file contains it', where a test file declares
`type DevStore` and thirteen files say `deprecated`. Only an answer with no hit is searched
again, so no query that finds anything ranks otherwise: a word becomes the name the
repository declares alike but for case and underscores (symbol_decls.names_alike), else the
inflection of it (an ending: ENDINGS) held by the most files.
"""

from __future__ import annotations

import re
import sqlite3

from processors.path_roles import roles_about
from processors.tokenizer import STOP_WORDS, query_tokens, tokenize
from query_api.retrieval.word_forms import forms
from streams.stores import ViewStore
from streams.stores.views.bm25 import CONTENT_FTS, doc_frequency
from streams.stores.views.read import terms_extending
from streams.stores.views.symbol_decls import names_alike

MIN_WORD = 4  # shorter words begin too many terms to mean one
_LETTERS = re.compile(r"[^\W\d_]+")  # a run of letters: one token when it has no capitals
MIN_JOINED = 6  # a name of two words run together is longer than this
# the endings of a word's inflections: `deprecate` is `deprecated`, where `zanzibar` is no
# `zanzibarword`, another word
ENDINGS = frozenset({"s", "es", "d", "ed", "ing", "r", "rs", "er", "ers", "ion", "ions"})
MAX_EXTENDING = 20  # the terms a word begins that are read for an inflection of it


def respelled(views: ViewStore, repo_id: str, text: str) -> str | None:
    """`text`'s words, each as the repository writes it where it writes it otherwise; None
    when no word is written otherwise."""
    words = query_tokens(text)

    def respell(conn: sqlite3.Connection) -> list[str]:
        return [_as_written(conn, repo_id, word) for word in words]

    found = views.read(respell)
    return " ".join(found) if found != words else None


def _as_written(conn: sqlite3.Connection, repo_id: str, word: str) -> str:
    if len(word) < MIN_WORD or not word.isalpha() or word in STOP_WORDS:
        return word
    alike = names_alike(conn, repo_id, word, 1)
    if alike and alike[0][0] != word:
        return alike[0][0]
    longer = terms_extending(conn, word, MAX_EXTENDING)
    return next((term for term in longer if term[len(word) :] in ENDINGS), word)


def joined_names(views: ViewStore, repo_id: str, text: str) -> str | None:
    """`text` with each lower-case word no file holds that spells a declared compound name
    run together (`consolewriter` -> `ConsoleWriter`) written as that name; None when no word
    is. The index holds a name's words apart (`console`, `writer`), so such a word matched
    nothing while the query's other words matched: QA on rs/zerolog, `consolewriter` and
    `timestampunixnano`. Unlike `respelled`, every query is read so, and only for names."""
    candidates = [
        word
        for word in query_tokens(text)
        if len(word) >= MIN_JOINED and word.isalpha() and word not in STOP_WORDS
    ]
    if not candidates:
        return None

    def read(conn: sqlite3.Connection) -> dict[str, str]:
        found: dict[str, str] = {}
        for word in candidates:
            if doc_frequency(conn, CONTENT_FTS, word) > 0:
                continue
            alike = names_alike(conn, repo_id, word, 1)
            if alike and len(tokenize(alike[0][0])) > 1:
                found[word] = alike[0][0]
        return found

    names = views.read(read)
    if not names:
        return None
    return _LETTERS.sub(lambda m: names.get(m.group(0).lower(), m.group(0)), text)


def as_held(views: ViewStore, repo_id: str, text: str) -> str:
    """`text` as keyword search reads it: its declared names run together written as declared
    (joined_names), and, in a query asking for pages, its subject's words in the number the
    repository writes them (subject_forms)."""
    text = joined_names(views, repo_id, text) or text
    return subject_forms(views, repo_id, text) or text


def subject_forms(views: ViewStore, repo_id: str, text: str) -> str | None:
    """`text` with each word no file holds written in its other number where files hold
    that (`sessions` -> `session`), when it asks for examples, docs, config or tests; None
    when it asks for none or no word is so. Such a query names its subject as a reader says
    it, and its form's word (`example`) matched files of every other subject: QA on
    tinyhttp/tinyhttp, `example of using sessions` left examples/session/ out of the first
    six, which `example of using session` put first. A request keeps its words as written."""
    if not roles_about(text):
        return None
    candidates = [
        word
        for word in query_tokens(text)
        if len(word) >= MIN_WORD and word.isalpha() and word not in STOP_WORDS
    ]

    def read(conn: sqlite3.Connection) -> dict[str, str]:
        found: dict[str, str] = {}
        for word in candidates:
            if doc_frequency(conn, CONTENT_FTS, word) > 0:
                continue
            held = [(doc_frequency(conn, CONTENT_FTS, form), form) for form in forms(word)]
            best = max((pair for pair in held if pair[0] > 0), default=None)
            if best is not None:
                found[word] = best[1]
        return found

    words = views.read(read) if candidates else {}
    if not words:
        return None
    return _LETTERS.sub(lambda m: words.get(m.group(0).lower(), m.group(0)), text)


def respelled_note(read: str, again: str) -> str:
    """What an answer found through respelled words says: the agent sees why no hit holds
    the words it wrote."""
    return f"no file holds {read!r} as written; searched as {again!r}"
