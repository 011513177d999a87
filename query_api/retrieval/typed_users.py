"""The users a users query asks for by its verb, read from the files' text: the types
implementing or extending a name (`what implements StringLookup`) and the files throwing an
exception no repository file declares (`who throws IllegalArgumentException`), which the
cross-references do not tell apart or cannot follow (users_first.implementers, raisers)."""

from __future__ import annotations

from collections.abc import Sequence

from processors.path_roles import Role, role_of
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from query_api.retrieval.users_first import implementers, last_part, raisers
from query_api.symbols.dependents import is_test_path
from streams.stores.views.read import paths_matching
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolRow

MAX_FILES = 200  # files read for the text of a name's users (body reads)


def _bodies(views: ViewStore, repo_id: str, paths: list[str]) -> dict[str, str]:
    bodies = {}
    for path in paths:
        row = views.get_content(repo_id, path)
        if row is not None:
            bodies[path] = row.body
    return bodies


def implementing(
    views: ViewStore,
    repo_id: str,
    name: str,
    users: list[str],
    declaring: Sequence[SymbolRow] = (),
) -> list[str]:
    """Of `users`, in their order, then of the files `declaring` the name, the files
    declaring a type that implements or extends `name` (users_first.implementers). QA on
    apache/commons-text: `what implements StringLookup` ranked StringLookupFactory.java,
    which implements nothing, second. The users leave out the declaring files, where a Rust
    trait's implementations often are: QA on serde-rs/json, `what implements Formatter`
    placed nothing (src/ser.rs declares it and `impl Formatter for CompactFormatter`), and
    `implementations of Index` placed src/value/mod.rs, using it as a bound, not
    src/value/index.rs (`impl Index for usize`)."""
    paths = list(dict.fromkeys([*users, *(row.path for row in declaring)]))
    if not paths:  # a trait no file declares nor imports by name: Rust's `Drop`, `io::Write`
        paths = _writing(views, repo_id, name)
    found = implementers(name, _bodies(views, repo_id, paths))
    return [path for path in paths if path in found]


def _writing(views: ViewStore, repo_id: str, name: str) -> list[str]:
    """The files writing `name` (its last part's words, in a row), of at most MAX_FILES,
    outside docs: code before tests, then by path. The standard library's traits are
    implemented without an import naming them (`impl Drop for Ticker`), so no reference
    leads to those files: QA on console-rs/indicatif, `what implements Drop` placed none of
    the three `impl Drop for` blocks."""
    phrase = phrase_query(tuple(tokenize(last_part(name))), "body_terms")
    paths = views.read(lambda c: paths_matching(c, repo_id, phrase, MAX_FILES))
    kept = {p for p in paths if role_of(p) != Role.DOC}
    return sorted(kept, key=lambda p: (is_test_path(p), p))


def raising(views: ViewStore, repo_id: str, name: str) -> list[str]:
    """The files raising or throwing `name` (users_first.raisers), of at most MAX_FILES
    spelling its words, outside docs: code before tests, the most raising first, then by
    path. QA on apache/commons-text: `who throws StringIndexOutOfBoundsException` (the
    platform's) placed no user and pointed hits at Javadoc `@throws` lines."""
    phrase = phrase_query(tuple(tokenize(last_part(name))), "body_terms")
    paths = views.read(lambda c: paths_matching(c, repo_id, phrase, MAX_FILES))
    kept = sorted(p for p in set(paths) if role_of(p) != Role.DOC)
    found = raisers(name, _bodies(views, repo_id, kept))
    return sorted(found, key=lambda p: (is_test_path(p), -len(found[p]), p))
