"""What an answer to `where is X tested` / `tests for X` says when no test file names or calls
X: its hits are then tests near X's file and files sharing X's words, which read as X's tests.
QA on egoist/tsup: `where is isExternal tested`, which no test writes, ranked
test/index.test.ts and test/svelte.test.ts first with no word. The hits stay (the nearest
guesses); the note says that none of them is a test of X.

A test file names or calls X when its body holds X as a whole word (a call, an import, a
title quoting it) or its own name is X's (`isExternal.test.ts`, `test_is_external.py`).
A test file in the answer whose body is indexed only in part (bodies are bounded) names X too
when one of its declarations carries X's words in a row (`TestValidate_ValidateMapCtx` for
ValidateMap): its calls past the bound are unread, and its test functions say what they test.
QA on go-playground/validator: `tests for ValidateMap` said no test names it, while
validator_test.go (14,000 lines, indexed to line 2,239) declares
TestValidateMapWithCrossFieldValidators at line 2,290 and calls ValidateMap there.
"""

from __future__ import annotations

import functools
import re
import sqlite3

from processors.path_roles import Role, role_of, roles_about
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from query_api.retrieval.tests_first import tested_name
from query_api.symbols.class_named_tests import squashed
from query_api.symbols.rust_tests import test_ranges
from query_api.symbols.tested_by import namings
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import files_with_path_words, paths_matching
from streams.stores.views.symbols import SymbolRow, symbols_of_file

MAX_READ = 400  # files holding the name's words read for it as a whole word


def no_test_note(views: ViewStore, repo_id: str, query: str, hits: list[t.SearchHit]) -> str | None:
    """The note for a question about the tests of one name that no test file names or
    calls (module doc); None for any other query, or when one does."""
    if not hits or Role.TEST not in roles_about(query):
        return None
    asked = tested_name(query)
    if asked is None:
        return None
    name = asked.rpartition(".")[2]
    words = tuple(tokenize(name))
    if not words or _tested(views, repo_id, name, words):
        return None
    if _declared_by_cut_test(views, repo_id, hits, words):
        return None
    return f"no test file names or calls {name}; these hits are the nearest guesses"


def _tested(views: ViewStore, repo_id: str, name: str, words: tuple[str, ...]) -> bool:
    """Whether a test file is named for `name` or holds it as a whole word."""
    named = views.read(lambda c: files_with_path_words(c, repo_id, name, MAX_READ))
    for path in named:
        if role_of(path) == Role.TEST and any(
            not n.by_folder and squashed(n.name) == squashed(name) for n in namings(path)
        ):
            return True
    phrase = phrase_query(words, "body_terms")
    holding = views.read(lambda c: paths_matching(c, repo_id, phrase, MAX_READ))
    if len(holding) >= MAX_READ:  # not all read: no claim that none is
        return True
    whole = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    for path in sorted(holding):
        rust = path.endswith(".rs") and role_of(path) == Role.SOURCE
        if role_of(path) != Role.TEST and not rust:
            continue
        row = views.get_content(repo_id, path)
        if row is None or not whole.search(row.body):
            continue
        if not rust or _unit_tests_write(views, repo_id, path, row.body, whole):
            return True
    return False


def _unit_tests_write(
    views: ViewStore, repo_id: str, path: str, body: str, whole: re.Pattern[str]
) -> bool:
    """Whether the unit tests a Rust source file holds (rust_tests.test_ranges) write the
    name: QA on sharkdp/hyperfine, `tests for compute_with_check` said no test calls it,
    while relative_speed.rs's `#[test] fn test_compute_relative_speed` does."""
    rows = views.read(functools.partial(_declared_in, repo_id=repo_id, path=path))
    lines = body.split("\n")
    return any(
        whole.search(line) for a, z in test_ranges(rows) for line in lines[max(0, a - 1) : z]
    )


def _declared_by_cut_test(
    views: ViewStore, repo_id: str, hits: list[t.SearchHit], words: tuple[str, ...]
) -> bool:
    """Whether a test file among `hits` whose body is indexed only in part declares a name
    holding `words` in a row (module doc)."""
    for hit in hits:
        path = hit.entry.path
        if hit.entry.kind != "File" or not path or role_of(path) != Role.TEST:
            continue
        row = views.get_content(repo_id, path)
        if row is None or not row.truncated:
            continue
        for symbol in views.read(functools.partial(_declared_in, repo_id=repo_id, path=path)):
            if _in_a_row(words, tuple(tokenize(symbol.name))):
                return True
    return False


def _declared_in(conn: sqlite3.Connection, repo_id: str, path: str) -> list[SymbolRow]:
    return symbols_of_file(conn, repo_id, path)


def _in_a_row(words: tuple[str, ...], name: tuple[str, ...]) -> bool:
    n = len(words)
    return any(name[i : i + n] == words for i in range(len(name) - n + 1))
