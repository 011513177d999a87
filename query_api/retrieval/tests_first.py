"""A query about tests gets the tests first: each just above the file it tests.

The role prior pushes tests down, and a query naming tests only softens that (search.role_prior:
`add tests for the pager` mostly changes the pager, and the benchmark's change requests that
mention tests changed their source). A question whose subject is tests is another thing:
`tests for retry conditions`, `where are the tests for the digest auth?` look for test files,
and the source file still holds the query's words best (resty's retry_test.go came 6th, below
retry.go, client.go and request.go). So when the query's subject is tests (path_roles.
roles_about), a test's words weigh as a source file's, and each source file in the answer has
the tests named for it (related's `tests`, by the naming convention: symbols/tested_by.py)
placed just above it, with its score and the reason `tests:<its path>`. A question about the
tests of one name (`tests for prefixStorage`) counts the test files using it as tests of the
file declaring it (tested_name), wherever they are named: on unjs/unstorage test/storage.test.ts
calls prefixStorage, which src/utils.ts declares, and came below it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from processors.path_roles import TEST_NOUNS, Role, role_of
from processors.qualified_names import qualified_names
from processors.tokenizer import STOP_WORDS, tokenize
from query_api.retrieval.subjects import Hydrate, place_above, pooled
from query_api.retrieval.test_fixtures import fixtures_after_tests
from query_api.retrieval.users_first import REASON as USES_REASON
from query_api.retrieval.users_first import used_name
from query_api.retrieval.word_forms import forms
from query_api.symbols.dependents import is_test_path
from query_api.symbols.tested_by import known_as, names_subject, namings
from schemas import tools as t
from streams.stores.views.named_files import FILE_EXTENSIONS

TestsOf = Callable[[str], list[str]]  # a source file's path -> the test files named for it
REASON = "tests:"  # + the path of the file the test was placed above
_SYMBOL = "symbol:"  # a hit's reason naming a declaration it matched
_NO_SUBJECT = STOP_WORDS | TEST_NOUNS  # words naming no test's subject alone or together
MAX_TESTS_PLACED = 3  # a module's index file can have a folder of tests named for it


def tests_first(
    hits: list[t.SearchHit],
    k: int,
    tests_of: TestsOf,
    hydrate: Hydrate,
    pool: list[t.SearchHit] | None = None,
    query: str = "",
) -> list[t.SearchHit]:
    """`hits` (best first, at most `k` kept) with the tests of each source file placed just
    above it: moved up from lower in the answer, taken from `pool` (the ranking before it was
    cut to `k`), or brought in when neither has them, while the file itself stays in the
    answer. A test already above is left there. The first are those of the ranking that
    `query` names (query_named_tests), and above all those named for its words alone
    (subject_named_tests). The fixtures above the first test follow it (test_fixtures)."""
    out = list(hits)
    placed: set[str] = set()
    # of a file's many tests (koa's lib/response.js has 30), those the ranking holds first
    ranked = {hit.entry.path: n for n, hit in enumerate(pool or hits) if hit.entry.path}
    i = 0
    while i < min(len(out), k):
        hit = out[i]
        path = hit.entry.path or ""
        placed.add(path)
        i += 1
        if hit.entry.kind != "File" or role_of(path) != Role.SOURCE:
            continue
        asked = query_named_tests(path, ranked, query) if query else []
        named = sorted((p for p in tests_of(path) if p not in asked), key=_by(ranked))
        tests = [p for p in [*asked, *named] if p not in placed]
        for test in tests[:MAX_TESTS_PLACED]:
            if i >= k:  # the file would leave the answer its test names it in
                break
            if place_above(out, i - 1, test, REASON + path, pool, hydrate, reason_first=True):
                placed.add(test)
                i += 1  # past the source file again
    named = subject_named_tests(ranked, query, pool or hits)[:MAX_TESTS_PLACED] if query else []
    out = _in_front(test_users_first(out, pool or hits, query), named, pool, hydrate)[:k]
    return fixtures_after_tests(out)  # the tests before the data they read


def test_users_first(
    hits: list[t.SearchHit], pool: list[t.SearchHit], query: str
) -> list[t.SearchHit]:
    """`hits` with the test files placed for using the name a users query asks about
    (`uses:`) first, from `pool` when the answer left them out: `which tests use X` asks
    for those, where the users' order puts code first. QA on console-rs/indicatif: `which
    tests use InMemoryTerm` ranked src/lib.rs, re-exporting it, above tests/render.rs, and
    `which tests call finish_with_message` filled its places with examples calling it."""
    if used_name(query) is None:
        return hits
    tests = [
        hit
        for hit in pool
        if hit.entry.kind == "File"
        and is_test_path(hit.entry.path or "")
        and any(r.startswith(USES_REASON) for r in hit.reasons)
    ]
    if not tests:
        return hits
    top = max((hit.score for hit in hits), default=0.0)
    first = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in tests]
    placed = {hit.entry.path for hit in tests}
    return [*first, *(hit for hit in hits if hit.entry.path not in placed)]


def _in_front(
    out: list[t.SearchHit], named: list[str], pool: list[t.SearchHit] | None, hydrate: Hydrate
) -> list[t.SearchHit]:
    """`out` with the hits of `named` first, in that order, at the first hit's score."""
    front: list[t.SearchHit] = []
    for test in named:
        at = next((j for j, h in enumerate(out) if h.entry.path == test), None)
        found = out.pop(at) if at is not None else pooled(pool, test, hydrate)
        if found is not None:
            front.append(found)
    if not front:
        return out
    top = max(h.score for h in [*front, *out[:1]])
    return [*(h.model_copy(update={"score": top}) for h in front), *out]


def subject_named_tests(
    paths: Iterable[str], query: str, hits: Iterable[t.SearchHit] = ()
) -> list[str]:
    """The test files of `paths` (in their order) whose own name is words `query` writes in
    a row (`test_suggest_commands.py` of `tests for suggest commands`), not a stop word or a
    word naming tests alone: QA on fastapi/typer ranked typer/main.py, holding those words,
    above tests/test_suggest_commands.py, and `where are the tests for the progress bar`
    put tests/test_progress_bar.py fourth, below termui's test and two source files; no
    source file is named so to place them above. Of `hits`, the test files declaring a test
    named for more of those words (declared_named_tests) come instead."""
    paths = list(paths)
    words, starts, ends = _written_words(query)
    runs = {  # a run of the query's words, joined (its last word or a form of it) -> words
        "".join(words[i : j - 1]) + last: j - i
        for i in range(len(words))
        for j in range(i + 1, min(len(words), i + MAX_RUN) + 1)
        # a word among them that is no stop word nor test noun: `for the` names no subject (QA
        # on tokio-rs/tracing: `..._for_the_same_span.rs` came first for `tests for the X macro`)
        if starts[i] and ends[j - 1] and not _NO_SUBJECT.issuperset(words[i:j])
        # `types.test.tsx` of `type tests`, `test_command.py` of `commands` (QA on jotai)
        for last in (words[j - 1], *sorted(forms(words[j - 1])))
    }
    found: list[tuple[str, int]] = []
    for path in paths:
        own = next(iter(namings(path)), None) if role_of(path) == Role.TEST else None
        name = re.sub(r"[_-]", "", own.name) if own is not None else ""
        if name in runs:
            found.append((path, runs[name]))
        elif own is not None and (held := _held_run(own.name, runs)) > 1:
            found.append((path, held))
    # of `test_scroll.py` and `test_pager_scroll.py` for `pager scroll`, the one naming more
    longest = max((words for _, words in found), default=0)
    declared = declared_named_tests(hits, runs, longest)
    if declared:
        return declared
    if not found:
        return _folder_named_tests(paths, runs)
    return [path for path, words in found if words == longest]


# the marker opening a test's own name: pytest's `test_`, Go's and JUnit's `Test`
_TEST_MARKER = re.compile(r"^(?:test_?|Test)(?=[A-Za-z])")


def declared_named_tests(
    hits: Iterable[t.SearchHit], runs: dict[str, int], least: int
) -> list[str]:
    """The test files of `hits` (in their order) with a `symbol:` reason naming a test for a
    run of at least two of the query's words and more than `least` (`test_tomlkit_converter`
    of `which tests cover the tomlkit converter`), those naming the most: QA on
    python-attrs/cattrs put tests/test_converter.py, named for `converter` alone, first and
    tests/test_preconf.py, declaring test_tomlkit_converter, third."""
    found: dict[str, int] = {}
    for hit in hits:
        path = hit.entry.path or ""
        if hit.entry.kind != "File" or role_of(path) != Role.TEST:
            continue
        for reason in hit.reasons:
            if not reason.startswith(_SYMBOL):
                continue
            name = re.split(r"\.|::|#", reason[len(_SYMBOL) :])[-1]
            tested = _TEST_MARKER.sub("", name, count=1)
            held = runs.get(re.sub(r"[_-]", "", tested.casefold()), 0) if tested != name else 0
            if held >= 2 and held > max(least, found.get(path, 0)):
                found[path] = held
    most = max(found.values(), default=0)
    return [path for path, held in found.items() if held == most]


def _folder_named_tests(paths: Iterable[str], runs: dict[str, int]) -> list[str]:
    """The test files of `paths` (in their order) whose folder is named for words the query
    writes in a row, when none is so named itself: the tests of a package (`tests for
    dynblock`, a Go package's ext/dynblock/*_test.go). QA on hashicorp/hcl ranked
    ext/dynblock/expand_spec.go, tested by no file named for it, above the package's tests."""
    found: list[str] = []
    for path in paths:
        folder = path.rpartition("/")[0].rpartition("/")[2]
        if role_of(path) == Role.TEST and re.sub(r"[_-]", "", folder.casefold()) in runs:
            found.append(path)
    return found


def _held_run(name: str, runs: dict[str, int]) -> int:
    """The most query words a run of `name`'s parts holds (`proxy_protocol` of
    `asgi_proxy_protocol`: 2 for `tests for the proxy protocol`), else 0: QA on
    benoitc/gunicorn, `tests for the PROXY protocol` put test_protocol.py (the control
    socket's protocol) first and tests/test_asgi_proxy_protocol.py in none of the first eight."""
    parts = [part for part in re.split(r"[_-]", name.casefold()) if part]
    held = (
        runs.get("".join(parts[i:j]), 0)
        for i in range(len(parts))
        for j in range(i + 2, len(parts) + 1)
    )
    return max(held, default=0)


def _written_words(query: str) -> tuple[list[str], list[bool], list[bool]]:
    """The query's words, and whether each opens and whether each ends a word as written: a
    run of them must not cut a name in parts (QA on rs/zerolog: `tests for
    Logger.UpdateContext` put context_test.go first, for the `context` of `UpdateContext`)."""
    words: list[str] = []
    starts: list[bool] = []
    ends: list[bool] = []
    for written in re.findall(r"[\w$]+", query):
        parts = [part.casefold() for part in tokenize(written)]
        words += parts
        starts += [n == 0 for n in range(len(parts))]
        ends += [n == len(parts) - 1 for n in range(len(parts))]
    return words, starts, ends


def tested_name(query: str) -> str | None:
    """The one name of several words a query about tests writes (`prefixStorage` of `tests
    for prefixStorage`, `parse_args` of `which test covers parse_args`), else None: a
    one-word name (`tests for reach`) is as often a plain word, unless written as a name
    (`tests for the Number type`, `` tests for `Value` ``)."""
    names = dict.fromkeys(w for w in _WORD.findall(query) if len(tokenize(w)) > 1)
    if len(names) > 1:  # a member with its class: `_RefResolver.resolve_fragment`, one name
        names = _one_qualified(query, names) or names
    if not names:  # a one-word name written as one: `the Number type`, `` `Value` ``
        names = dict.fromkeys(a or b for a, b in _KINDED.findall(query))
    if not names:  # a qualified one: `Value.Clean` (QA on sinclairzx81/typebox), no `x.ts`
        written = qualified_names(query)
        names = dict.fromkeys(
            ".".join(parts) for parts in written if parts[-1].casefold() not in _EXTENSIONS
        )
    return next(iter(names)) if len(names) == 1 else None


def _one_qualified(query: str, names: dict[str, None]) -> dict[str, None]:
    """The qualified name of `query` writing each of `names` as a part, when it writes one
    (QA on python-jsonschema/jsonschema: `where is _RefResolver.resolve_fragment tested`
    named two names, so none, and no test calling resolve_fragment was looked for)."""
    written = [parts for parts in qualified_names(query) if parts[-1].casefold() not in _EXTENSIONS]
    if len(written) != 1 or not set(names) <= set(written[0]):
        return {}
    return {".".join(written[0]): None}


_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# a written name ending so names a file (`clean.ts`), not a member
_EXTENSIONS = FILE_EXTENSIONS | {"ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "go", "java"}
# QA on serde-rs/json: `tests for the Number type` ranked src/number.rs first and
# tests/test.rs, calling Number's methods, tenth
_KINDED = re.compile(
    r"`([A-Za-z_$][\w$]*)`|\b([A-Z][\w$]*)\s+(?:type|class|struct|enum|trait|interface)\b"
)


def _by(ranked: dict[str, int]) -> Callable[[str], tuple[int, str]]:
    """A test's sort key: its place in the ranking (unranked last), then its path."""
    return lambda path: (ranked.get(path, len(ranked)), path)


MAX_RUN = 6  # query words a test's name adds to its subject's (`CopyDirectoryToDirectory`)


def query_named_tests(source: str, paths: Iterable[str], query: str) -> list[str]:
    """The test files of `paths` named for `source` and for words `query` writes in a row
    (TailerCloseTest.java for Tailer.java and `tests for Tailer close`; test_pager_scroll.py
    for pager.py and `tests for pager scroll`), where the convention would have a test named
    for `source` alone (tested_by): QA on apache/commons-io, `tests for Tailer close` put
    TailerCloseTest.java, the test written for it, third, below TailerTest.java and
    Tailer.java."""
    words = [word.casefold() for word in tokenize(query)]
    runs = {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, i + MAX_RUN)}
    return [path for path in paths if role_of(path) == Role.TEST and _named(path, source, runs)]


def _named(test: str, source: str, runs: set[str]) -> bool:
    """Whether `test`'s own name (`tailerclose`, not its folder's) is a name of `source` and
    one of `runs`, where a test named for `source` alone would be its test."""
    for naming in namings(test)[:1]:
        for name, _folders in known_as(source):
            added = naming.name[len(name) :]
            if not naming.name.startswith(name) or added.lstrip("_-") not in runs:
                continue
            if names_subject(_without(test, added), source) is not None:
                return True
    return False


def _without(test: str, added: str) -> str:
    """`test`'s path less the part `added` of its file name (`TailerCloseTest.java` less
    `close`: `TailerTest.java`), matched without case; `test` when it is not there once."""
    folder, _, file = test.rpartition("/")
    at = file.casefold().find(added)
    if at < 0 or file.casefold().find(added, at + 1) >= 0:
        return test
    return (
        f"{folder}/{file[:at]}{file[at + len(added) :]}"
        if folder
        else file[:at] + file[at + len(added) :]
    )
