"""A JavaScript or TypeScript test file's outline lists its describe/it blocks
(query_api/symbols/js_test_blocks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.js_test_blocks import outlined_test_blocks as blocks_of
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

SPEC = """\
import { describe, it, expect } from "vitest";

const data = { a: 1 };

describe("storage", () => {
  it("mount/unmount", async () => {
    expect(1).toBe(1);
  });

  it.skip('has "quotes"', () => expect(2).toBe(2));

  describe.each([[1], [2]])("with %i", (n) => {
    test(`adds ${n}`, () => {
      expect(n).toBeTruthy();
    });
  });
});

it("stands alone", () => {
  // it("commented out") in a comment is no block
});
"""


def test_the_blocks_are_named_within_their_describes() -> None:
    rows = blocks_of("r", "test/storage.test.ts", SPEC)
    got = [(r.fq_name, r.signature, r.start_line, r.end_line) for r in rows]
    assert got == [
        ("storage", "describe", 5, 17),
        ("storage > mount/unmount", "it", 6, 8),
        ('storage > has "quotes"', "it.skip", 10, 10),
        ("storage > with %i", "describe.each([[1], [2]])", 12, 16),
        ("storage > with %i > adds ${n}", "test", 13, 15),
        ("stands alone", "it", 19, 21),
    ], got


def test_a_file_without_blocks_has_none() -> None:
    assert blocks_of("r", "a.test.ts", "export const x = 1;\nit.todo;\n") == []


@pytest.mark.anyio
async def test_outline_of_a_test_file_lists_its_blocks(tmp_path: Path) -> None:
    """QA on unjs/unstorage: test/storage.test.ts (296 lines) outlined as its one const."""
    src = "export function add(a: number, b: number): number {\n  return a + b;\n}\n"
    files = {"test/storage.test.ts": SPEC, "src/add.ts": src}
    write_files(tmp_path / "ws" / "repo", files)
    async with memory_rig(tmp_path, index=True) as (_, s):
        args = {"repoId": "repo", "path": "test/storage.test.ts"}
        got = await call(s, "repocontext_outline", args)
        names = [x["fullyQualifiedName"] for x in got["symbols"]]
        assert names[:3] == ["data", "storage", "storage > mount/unmount"], names
        # a source file's calls are no test blocks
        code = await call(s, "repocontext_outline", {"repoId": "repo", "path": "src/add.ts"})
        assert [x["fullyQualifiedName"] for x in code["symbols"]] == ["add"], code
