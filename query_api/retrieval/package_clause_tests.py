"""A test file whose hit is only its Go package clause (`package dynblock`) points at its
first test instead, for a query about tests.

`tests for dynblock` names a package, and the one line of each of its test files holding
that word is `package dynblock`: QA on hashicorp/hcl pointed ext/dynblock/expand_body_test.go
and variables_test.go at line 4, which says nothing of what they test. Their first test
function (`func TestExpand(t *testing.T)`) is where an agent reads on.
"""

from __future__ import annotations

import re

from processors.path_roles import Role, role_of, roles_about
from query_api.retrieval.hit_details import DETAILED_HITS, LINE_CHARS, MAX_RANGE_LINES, HitLocator
from schemas import tools as t

_PACKAGE_CLAUSE = re.compile(r"^\d+: package \w+$")
_TEST_FUNCTION = re.compile(r"^(?:Test|Fuzz|Benchmark|Example)[A-Z_0-9]")


def at_first_tests(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each Go test file hit at its package clause alone pointed at the file's
    first test function, when the query is about tests."""
    if Role.TEST not in roles_about(query):
        return hits
    return [
        _at_first_test(locator, repo_id, hit) if rank < DETAILED_HITS else hit
        for rank, hit in enumerate(hits)
    ]


def _at_first_test(locator: HitLocator, repo_id: str, hit: t.SearchHit) -> t.SearchHit:
    path = hit.entry.path or ""
    if hit.entry.kind != "File" or not path.endswith("_test.go") or role_of(path) != Role.TEST:
        return hit
    if not _PACKAGE_CLAUSE.match(hit.snippet or ""):
        return hit
    body = locator.body(repo_id, path)
    if body is None:
        return hit
    lines = body.split("\n")
    tests = [
        s
        for s in locator.symbols_of(repo_id, path)
        if s.kind == "Function" and _TEST_FUNCTION.match(s.name) and s.start_line <= len(lines)
    ]
    if not tests:
        return hit
    first = min(tests, key=lambda s: s.start_line)
    end = min(first.end_line, first.start_line + MAX_RANGE_LINES - 1, len(lines))
    text = lines[first.start_line - 1].strip()
    text = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
    update = {
        "startLine": first.start_line,
        "endLine": end,
        "snippet": f"{first.start_line}: {text}",
    }
    return hit.model_copy(update=update)
