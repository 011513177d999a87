"""A query about tests points a JavaScript or TypeScript test file's hit into its test calls
(`test(...)`, `it(...)`, `describe(...)`) when lines there match. QA on mswjs/msw: `where are
the tests for sse` pointed each of test/browser/sse-api/*.test.ts at its `declare namespace
window { export const msw: { sse: typeof sse } }` block (`sse: typeof sse`, two matches on a
line), above the tests that call `sse(...)`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.test_module_lines import test_call_ranges as call_ranges
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

TEST = """import type { sse } from 'msw'

declare namespace window {
  export const msw: {
    sse: typeof sse
  }
}

test('sends a mock message event', async ({ page }) => {
  await page.evaluate(() => {
    const stream = window.msw.sse('http://localhost/stream')
    return stream
  })
})
"""
FILES = {
    "src/sse.ts": "export function sse(path: string): string {\n  return path\n}\n",
    "test/sse-api/sse.send.test.ts": TEST,
}


def test_the_ranges_of_test_calls() -> None:
    lines = TEST.split("\n")
    assert call_ranges(lines) == [(9, 14)]
    nested = ["describe('a', () => {", "  it.only('b', () => {", "    x()", "  })", "})", ""]
    assert call_ranges(nested) == [(1, 5), (2, 4)]
    assert call_ranges(["const test = 1", "latest('x')"]) == []


async def test_a_tests_query_points_into_the_test_calls(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "tests for sse"})
        hit = next(h for h in found["hits"] if h["entry"]["path"].endswith(".test.ts"))
        assert 9 <= hit["startLine"] <= 14, hit
        assert "typeof sse" not in hit["snippet"], hit
