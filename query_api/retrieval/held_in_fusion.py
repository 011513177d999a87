"""Which keyword hits hybrid search's fusion ranks no lower than keyword search did.

Files of some roles are never embedded (processors.vectors): tests, docs, config. The fused
score counts a file's place in the semantic list, which cannot hold them, so a file the query
asks for by its role or names by its name fell below files both lists found
(query_api/retrieval/fusion.py moves the held ones back up).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.path_roles import Role, role_of, roles_about
from processors.query_scope import in_named_example, named_examples
from processors.tokenizer import named_identifiers, tokenize
from query_api.retrieval.ci_files import is_ci_file
from query_api.retrieval.hit_details import SYMBOL_REASON
from schemas import tools as t
from streams.stores.views.search import roles_in


def held_at_keyword_rank(query: str) -> Callable[[t.SearchHit], bool] | None:
    """Which keyword hits keep their keyword rank in the fusion: the test files, when the query
    asks for tests (`add tests for MatchAll`). Tests are never embedded (processors.vectors),
    so the semantic list cannot hold them, and hybrid search dropped the very tests keyword
    search found. Docs and config asked for stay fused by score: on the tuning half, holding
    them at their keyword rank put pyproject.toml and changelogs above the code a request for
    a version or a typo fix changed (docs/benchmarks.md); docs a query is about (`where is X
    documented`: path_roles.roles_about) are held too, and so is a doc or config file the
    query names (`fix typo in README`, `chore(eslint.config): ...`): fused by score, hybrid
    search put README.md 7th and eslint.config.mjs 10th where keyword search put them first.
    The files of an example program a request names (`fix the chat example`:
    query_scope.named_examples) are held too, and an example declaring a name the request
    writes as code (`fix function echoReadAll comment`: QA on gorilla/websocket, keyword
    search put examples/autobahn/server.go first, the fusion 3rd). So are the CI files
    (ci_files.is_ci_file) of a request naming CI as a word (_NAMES_CI: `Add GH CI Java 26`,
    `Upgrade macos-13 in CI`): QA on apache/commons-csv, keyword search put
    .github/workflows/maven.yml first, the fusion 6th, below library files the vectors list
    holds for `Java`. None when none of these is asked."""
    held = ({Role.TEST} & roles_in(query)) | ({Role.DOC} & roles_about(query))
    words = frozenset(tokenize(query))
    examples = named_examples(query)  # `the chat example`: examples/chat/, never embedded
    names = frozenset(named_identifiers(query))
    ci = _NAMES_CI.search(query) is not None
    if not held and not words:
        return None

    def unembedded(hit: t.SearchHit) -> bool:
        if hit.entry.kind != "File":
            return False
        path = hit.entry.path or ""
        role = role_of(path)
        named = role in _NAMED_ROLES and _file_stem(path) in words
        if role == Role.EXAMPLE and _declares(hit, names):
            return True
        if ci and is_ci_file(path):
            return True
        return role in held or named or in_named_example(path, examples) is not None

    return unembedded


_NAMED_ROLES = frozenset({Role.DOC, Role.CONFIG})  # never embedded, and named by their file
# CI named as a word: not a name's part (`process.env.CI`, `pre-commit-ci[bot]` of a
# co-author trailer), nor `github actions`, which names a feature as often (mocha's
# github-actions reporter)
_NAMES_CI = re.compile(r"(?<![\w.$/-])ci(?![\w.\[-])|\bcontinuous integration\b", re.IGNORECASE)


def _declares(hit: t.SearchHit, names: frozenset[str]) -> bool:
    """Whether the first declaration a keyword hit's reasons name is one of `names` as
    written (keyword search names those first)."""
    first = next((r for r in hit.reasons if r.startswith(SYMBOL_REASON)), None)
    return first is not None and first.rpartition(".")[2] in names


def _file_stem(path: str) -> str:
    """A file's name up to its first dot, lower-cased: `readme` for README.md, `eslint` for
    eslint.config.mjs, `eslintrc` for .eslintrc.json."""
    name = path.rsplit("/", 1)[-1].lstrip(".")
    return name.split(".", 1)[0].lower()
