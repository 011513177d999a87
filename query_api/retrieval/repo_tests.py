"""A question asking for the repository's tests, with no subject, lists its tests first.

`where are the unit tests`, `where are the integration tests`, `show me the tests` ask where
the tests are, not for the tests of something: tests_first places each source file's tests
above it, and ranks by the words of the question, so `unit` and `integration` were searched
as a subject no test writes. QA on ajeetdsouza/zoxide, whose tests are three Rust
`#[cfg(test)] mod tests` and tests/completions.rs: `where are the unit tests` answered no
test file and `where are the integration tests` put CHANGELOG.md first (its `integration`),
tests/completions.rs nowhere. Such a question gets the repository's test files, and the
source files holding a test module, first: those of the kind it names before the others
(`integration`: a path naming it, or a Rust crate's top-level tests/ folder; `unit`: a path
naming it, or a file's own test module), then in the ranking's order, then by path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from processors.path_roles import Role, role_of, roles_about
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from query_api.retrieval.inline_tests_first import subject_of_tests
from query_api.retrieval.test_module_lines import TEST_KINDS
from query_api.symbols.rust_tests import test_ranges
from schemas import tools as t
from streams.stores.views.read import paths_matching
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews

Hydrate = Callable[[str], t.SearchHit | None]
HoldsTests = Callable[[str], bool]  # a source path -> whether it declares a test module
MAX_LISTED = 200  # test paths read from the index per question

_INTEGRATION = frozenset({"integration", "e2e", "acceptance", "functional"})
# words of a question about where the tests are, none a subject
_PLACE_WORDS = frozenset(
    {"all", "any", "show", "me", "list", "find", "located", "location", "live", "lives", "kept",
     "stored", "written", "put", "placed", "repository", "repo", "project", "codebase", "code",
     "here", "this", "its", "our", "existing", "suite", "suites", "end", "exist", "exists",
     "defined", "organized", "organised"}
)  # fmt: skip
# the path words of a test file's name or folder (tokenize splits `foo_test.go`, `__tests__`)
_TEST_PATH_WORDS = ("test", "tests", "spec", "specs")
# a test module's attribute in a file's words (`#[cfg(test)]`), or a test function's (`#[test]
# fn`, `#[tokio::test] async fn`) where no test module holds them
_TEST_MODULE_WORDS = (("cfg", "test"), ("test", "fn"), ("test", "async", "fn"))


def kinds_asked(query: str) -> frozenset[str] | None:
    """The kinds of tests (`unit`, `integration`) a question asking for the repository's
    tests names, or None when it is no such question: not about tests, or about the tests
    of a subject (`tests for the parser`, `unit tests for TimeFormat`)."""
    if Role.TEST not in roles_about(query):
        return None
    subject = subject_of_tests(query)
    if subject.names or subject.words - TEST_KINDS - _PLACE_WORDS:
        return None
    return subject.words & TEST_KINDS


def listed_tests(
    views: ViewStore, symbols: SymbolViews, repo_id: str
) -> tuple[list[str], set[str]]:
    """The repository's tests (repository_tests), read from its index: the files whose path
    holds a test word, and those writing a test module's attribute (`#[cfg(test)]`)."""
    by_path = " OR ".join(phrase_query((word,), "path_terms") for word in _TEST_PATH_WORDS)
    by_body = " OR ".join(phrase_query(words, "body_terms") for words in _TEST_MODULE_WORDS)
    test_paths = views.read(lambda conn: paths_matching(conn, repo_id, by_path, MAX_LISTED))
    module_paths = views.read(lambda conn: paths_matching(conn, repo_id, by_body, MAX_LISTED))

    def holds_tests(path: str) -> bool:
        return bool(test_ranges(symbols.symbols_of_file(repo_id, path)))

    return repository_tests(test_paths, module_paths, holds_tests)


def repository_tests(
    test_paths: Iterable[str], module_paths: Iterable[str], holds_tests: HoldsTests
) -> tuple[list[str], set[str]]:
    """The repository's tests: the test files among `test_paths` and the source files among
    `module_paths` that declare a test module, and which of them are the latter."""
    tests = {path for path in test_paths if role_of(path) == Role.TEST}
    modules = {
        path
        for path in module_paths
        if path not in tests and role_of(path) == Role.SOURCE and holds_tests(path)
    }
    return sorted(tests | modules), modules


def _of_kind(path: str, kinds: frozenset[str], modules: set[str]) -> bool:
    """Whether the test at `path` is of a kind the question names."""
    words = set(tokenize(path))
    if words & kinds:
        return True
    if kinds & _INTEGRATION:
        parts = path.split("/")
        return len(parts) == 2 and parts[0] == "tests" and path.endswith(".rs")
    return "unit" in kinds and path in modules


def repository_tests_first(
    hits: list[t.SearchHit],
    tests: list[str],
    modules: set[str],
    kinds: frozenset[str],
    hydrate: Hydrate,
) -> list[t.SearchHit]:
    """`hits` with the repository's `tests` first, at the first hit's score: those of the
    asked `kinds` first, then in `hits`' order, then by path; the other hits after them."""
    if not tests:
        return hits
    ranked = {hit.entry.path: n for n, hit in enumerate(hits) if hit.entry.kind == "File"}
    order = sorted(
        tests,
        key=lambda p: (not _of_kind(p, kinds, modules), ranked.get(p, len(ranked)), p),
    )
    by_path = {hit.entry.path: hit for hit in hits if hit.entry.kind == "File"}
    top = max((hit.score for hit in hits), default=0.0)
    first: list[t.SearchHit] = []
    for path in order:
        hit = by_path.get(path) or hydrate(path)
        if hit is not None:
            first.append(hit.model_copy(update={"score": max(hit.score, top)}))
    placed = {hit.entry.path for hit in first}
    return [*first, *(hit for hit in hits if hit.entry.path not in placed)]
