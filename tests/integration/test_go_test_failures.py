"""A pasted `go test` failure (`--- FAIL: TestSchemeMatcher (0.01s)`) ranks the test file
declaring the failing test first and points its hit at the test. QA on gorilla/mux:
`--- FAIL: TestSchemeMatcher (0.01s)` with the `FAIL  github.com/gorilla/mux` lines after
it left old_test.go, the one file declaring TestSchemeMatcher, out of the first five (the
words `fail`, `gorilla` and `mux` ranked mux.go first), and pointed route.go at a comment."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.failed_tests import failed_tests
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "mux.go": (
        "// Package mux is a request router: mux, gorilla mux, fail fast.\n"
        "package mux\n\n"
        "// Router registers routes; a failed match fails with a scheme error.\n"
        "type Router struct {\n\tscheme string\n}\n\n"
        "// Scheme adds a matcher for the URL scheme; mux fails without one.\n"
        "func (r *Router) Scheme(s string) *Router {\n\tr.scheme = s\n\treturn r\n}\n"
    ),
    "route.go": (
        "package mux\n\n"
        "// schemeMatcher matches the request against URL schemes (mux, gorilla).\n"
        "type schemeMatcher []string\n\n"
        "func (m schemeMatcher) Match(s string) bool {\n\treturn len(m) > 0 && m[0] == s\n}\n"
    ),
    "old_test.go": (
        "package mux\n\n"
        'import "testing"\n\n'
        "// TestHeaderMatcher: the gorilla mux tests fail here first when a mux run fails\n"
        "func TestHeaderMatcher(t *testing.T) {\n\tt.Log(1)\n}\n\n"
        "func TestSchemeMatcher(t *testing.T) {\n"
        '\tif !(schemeMatcher{"http"}).Match("http") {\n'
        '\t\tt.Errorf("no match")\n\t}\n}\n'
    ),
}

FAILURE = "--- FAIL: TestSchemeMatcher (0.01s)\nFAIL\nFAIL\tgithub.com/gorilla/mux\t0.020s\n"


def test_the_failed_tests_are_read_from_go_test_output() -> None:
    assert failed_tests(FAILURE) == ["TestSchemeMatcher"]
    # a subtest names its test function before the slash; a run that passed names none
    assert failed_tests("    --- FAIL: TestHost/with_port (0.00s)") == ["TestHost"]
    assert failed_tests("--- PASS: TestHost (0.00s)\nok  \tgithub.com/x/y\t0.1s") == []
    assert failed_tests("why does TestSchemeMatcher fail") == []


async def test_a_go_test_failure_ranks_the_failing_test_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": FAILURE})
        first = found["hits"][0]
        assert first["entry"]["path"] == "old_test.go", found["hits"]
        assert (first["startLine"], first["endLine"]) == (10, 14), first
