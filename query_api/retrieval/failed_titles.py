"""The JavaScript and TypeScript tests a pasted test run says failed, named by their titles:
Vitest's `FAIL  src/url.test.ts > matchRequestUrl > matches wildcard ports` and `×
matchRequestUrl > matches wildcard ports 12ms`, Jest's `● matchRequestUrl › matches wildcard
ports` and `✕ matches wildcard ports (5 ms)`.

Such a test has no declared name, only the string its `test(...)`/`it(...)` call is given, so
the symbols say nothing of it (failed_tests.py reads `go test` and JVM failures by name). QA on
mswjs/msw: Vitest's FAIL line for `matchRequestUrl > matches wildcard ports with other wildcard
parameters` pointed matchRequestUrl.test.ts's hit at lines 122-131, the end of the test above
it. Each detailed hit of a test file whose text calls a test (or suite) by the titles, and of
the file the line names when it names one, is pointed at the test's call: its line and, when
the call closes within MAX_RANGE_LINES, those up to its end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from processors.path_roles import Role, role_of
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from query_api.retrieval.hit_details import (
    DETAILED_HITS,
    LINE_CHARS,
    MAX_RANGE_LINES,
    SNIPPET_LINES,
    HitLocator,
)
from schemas import tools as t
from streams.stores.views.read import paths_matching
from streams.stores.views.store import ViewStore

_JS_TEST = r"[\w./@-]+\.[cm]?[jt]sx?"  # a test file's path as a runner prints it
_PROJECT = r"(?:\|[^|\n]+\|[ \t]+)?"  # Vitest's workspace project (`|unit| `)
_DURATION = r"(?:[ \t]+\(?\d+(?:\.\d+)?[ \t]*m?s\)?)?"  # `12ms`, `(5 ms)`
_FAILED = (
    # Vitest: ` FAIL  src/url.test.ts > suite > title` (a `[ browser ]` tag may follow)
    re.compile(
        rf"^[ \t]*FAIL[ \t]+{_PROJECT}({_JS_TEST})[ \t]+>[ \t]+(.+?)(?:[ \t]+\[[^\]\n]*\])?"
        rf"{_DURATION}[ \t]*$",
        re.MULTILINE,
    ),
    # Vitest's and Jest's failed test in the run's list: `× suite > title 12ms`, `✕ title`
    re.compile(rf"^[ \t]*[×✕✗][ \t]+(?:({_JS_TEST})[ \t]+>[ \t]+)?(.+?){_DURATION}[ \t]*$", re.M),
    # Jest's failure heading: `● suite › title`
    re.compile(r"^[ \t]*●[ \t]+()(.+?)[ \t]*$", re.MULTILINE),
)
_SEPARATORS = re.compile(r"[ \t]+[>›][ \t]+")
_CALL = r"\b(?:it|test|describe|suite|bench)(?:\.\w+)*[ \t]*\([ \t]*(['\"`]){title}\1"
_OPENING, _CLOSING = "([{", ")]}"
MAX_CALLING = 5  # more test files calling a title: too common to say which failed
_READ = 50  # files holding a title's words read for its call


@dataclass(frozen=True, slots=True)
class FailedTitle:
    """One failed test: the file its line names (None when it names none) and its titles,
    the outermost suite's first."""

    path: str | None
    titles: tuple[str, ...]


def failed_titles(query: str) -> list[FailedTitle]:
    """The failed tests the query's Vitest or Jest lines name, each once."""
    found: dict[FailedTitle, None] = {}
    for pattern in _FAILED:
        for m in pattern.finditer(query):
            titles = tuple(part for part in _SEPARATORS.split(m.group(2).strip()) if part)
            if titles:
                found[FailedTitle(m.group(1) or None, titles)] = None
    return list(found)


def files_calling(views: ViewStore, repo_id: str, failed: Sequence[FailedTitle]) -> set[str]:
    """The test files calling the failed tests (of the file a failure line names, when it
    names one): Jest's `● suite › title` names no file, and the title's words rank the
    code they are about (QA on mswjs/msw: matchRequestUrl.test.ts was not in the first
    three). None when more than MAX_CALLING files do."""
    found: set[str] = set()
    for test in failed:
        words = tuple(tokenize(test.titles[-1]))
        if not words:
            continue
        for path in _paths_holding(views, repo_id, phrase_query(words, "body_terms")):
            if role_of(path) != Role.TEST or (test.path and not _same_file(test.path, path)):
                continue
            row = views.get_content(repo_id, path)
            if row is not None and _called_at(row.body.split("\n"), [test]) is not None:
                found.add(path)
    return found if len(found) <= MAX_CALLING else set()


def _paths_holding(views: ViewStore, repo_id: str, phrase: str) -> list[str]:
    return views.read(lambda conn: paths_matching(conn, repo_id, phrase, _READ))


def at_failed_titles(
    locator: HitLocator, repo_id: str, failed: Sequence[FailedTitle], hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each detailed test file hit calling a failed test pointed at that call."""
    out = []
    for rank, hit in enumerate(hits):
        path = hit.entry.path
        if (
            rank < DETAILED_HITS
            and hit.entry.kind == "File"
            and path
            and role_of(path) == Role.TEST
        ):
            body = locator.body(repo_id, path)
            mine = [f for f in failed if f.path is None or _same_file(f.path, path)]
            called = _called_at(body.split("\n"), mine) if body is not None and mine else None
            if called is not None and body is not None:
                hit = _at(hit, body.split("\n"), called)
        out.append(hit)
    return out


def _same_file(written: str, path: str) -> bool:
    written = written.removeprefix("./")
    return path == written or path.endswith("/" + written) or written.endswith("/" + path)


def _called_at(lines: Sequence[str], failed: Sequence[FailedTitle]) -> int | None:
    """The 0-based line of the first failed test's call `lines` hold: its suites' titles
    looked for in order, each after the one before it (those not found passed over), then
    its own title after them, else anywhere."""
    for test in failed:
        *suites, own = test.titles
        at = 0
        for title in suites:
            at = _call_of(lines, title, at) or at
        found = _call_of(lines, own, at)
        if found is None and at:
            found = _call_of(lines, own, 0)
        if found is not None:
            return found
    return None


def _call_of(lines: Sequence[str], title: str, start: int) -> int | None:
    call = re.compile(_CALL.format(title=re.escape(title)))
    return next((n for n in range(start, len(lines)) if call.search(lines[n])), None)


def _at(hit: t.SearchHit, lines: Sequence[str], start: int) -> t.SearchHit:
    end = _call_end(lines, start)
    shown = [n for n in range(start, end + 1) if lines[n].strip()][:SNIPPET_LINES]
    snippet = "\n".join(f"{n + 1}: {_cut(lines[n].strip())}" for n in shown)
    return hit.model_copy(update={"startLine": start + 1, "endLine": end + 1, "snippet": snippet})


def _call_end(lines: Sequence[str], start: int) -> int:
    """The line the call opened on `start` closes on, when within MAX_RANGE_LINES; else
    `start` (brackets inside strings and comments are counted too: a guess at its end)."""
    depth = 0
    for n in range(start, min(len(lines), start + MAX_RANGE_LINES)):
        for char in lines[n]:
            if char in _OPENING:
                depth += 1
            elif char in _CLOSING:
                depth -= 1
                if depth == 0:
                    return n
    return start


def _cut(text: str) -> str:
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
