"""A pasted Vitest or Jest failure points the test file's hit at the failed test's call
(query_api/retrieval/failed_titles.py). QA on mswjs/msw: Vitest's `FAIL  src/core/utils/
matching/matchRequestUrl.test.ts > matchRequestUrl > matches wildcard ports with other
wildcard parameters` pointed the test file's hit at lines 122-131, the end of the test
above the failed one (line 129); Jest's `● matchRequestUrl › returns true when matched
against a RegExp`, which names no file, left the test file out of the first three."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.failed_titles import FailedTitle, failed_titles
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

SOURCE = """/** Matches wildcard ports with other wildcard parameters, wildcard hosts and paths. */
export function matchUrl(url: string, mask: string): boolean {
  return url === mask || mask === '*'
}
"""
TEST = """import { matchUrl } from './matchUrl'

describe('matchUrl', () => {
  test('matches an exact url', () => {
    expect(matchUrl('http://localhost:8080/user', 'http://localhost:8080/user')).toBe(true)
    expect(matchUrl('http://localhost:8080/user', 'http://localhost:9090/user')).toBe(false)
  })

  test('matches wildcard ports with other wildcard parameters', () => {
    expect(matchUrl('http://localhost:8080/user', 'http://localhost:*/user')).toBe(true)
  })
})

describe('other', () => {
  test('matches wildcard ports with other wildcard parameters', () => {
    expect(matchUrl('http://a:1/', '*')).toBe(true)
  })
})
"""
FILES = {"src/matchUrl.ts": SOURCE, "src/matchUrl.test.ts": TEST}
VITEST = (
    " FAIL  src/matchUrl.test.ts > matchUrl > matches wildcard ports with other wildcard "
    "parameters\nAssertionError: expected false to be true // Object.is equality\n"
)


async def test_a_vitest_failure_points_at_the_failed_test(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": VITEST})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "src/matchUrl.test.ts")
        assert (hit["startLine"], hit["endLine"]) == (9, 11), hit
        assert hit["snippet"].startswith("9: test('matches wildcard ports"), hit
        # Jest's heading for the other suite's test of the same title
        jest = (
            "● other › matches wildcard ports with other wildcard parameters\n\n  expect(received)"
        )
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": jest})
        # it names no file: the test file calling it ranks first
        hit = found["hits"][0]
        assert hit["entry"]["path"] == "src/matchUrl.test.ts", found["hits"]
        assert hit["startLine"] == 15, hit


def test_the_failure_lines_read() -> None:
    assert failed_titles(VITEST) == [
        FailedTitle(
            "src/matchUrl.test.ts",
            ("matchUrl", "matches wildcard ports with other wildcard parameters"),
        )
    ]
    assert failed_titles(" FAIL  |unit| src/a.test.ts > suite > works [ browser ] 12ms") == [
        FailedTitle("src/a.test.ts", ("suite", "works"))
    ]
    assert failed_titles("   × suite > works 3ms\n    ✕ other works (5 ms)") == [
        FailedTitle(None, ("suite", "works")),
        FailedTitle(None, ("other works",)),
    ]
    assert failed_titles("● suite › nested › works") == [
        FailedTitle(None, ("suite", "nested", "works"))
    ]
    assert failed_titles("FAIL the build") == []
    assert failed_titles("why does x > y fail") == []
