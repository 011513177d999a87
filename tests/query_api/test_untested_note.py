"""`where is X tested` when no test file names or calls X says so, and still shows the best
guesses. QA on egoist/tsup: `where is isExternal tested` ranked test/index.test.ts and
test/svelte.test.ts first with no note, though neither names isExternal."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/utils.ts": (
        "export function isExternal(id: string): boolean {\n  return !id.startsWith('.');\n}\n\n"
        "export function toEntry(path: string): string {\n  return path + '/index.ts';\n}\n"
    ),
    "src/index.ts": (
        "import { isExternal, toEntry } from './utils';\n\n"
        "export function build(id: string): string {\n"
        "  return isExternal(id) ? id : toEntry(id);\n}\n"
    ),
    "test/index.test.ts": (
        "import { build } from '../src/index';\n\n"
        "it('builds an external entry', () => {\n  expect(build('react')).toBe('react');\n});\n"
    ),
    "test/utils.test.ts": (
        "import { toEntry } from '../src/utils';\n\n"
        "it('makes an entry', () => {\n  expect(toEntry('a')).toBe('a/index.ts');\n});\n"
    ),
}


async def test_a_name_no_test_names_or_calls_is_said_untested(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is isExternal tested")
        )
        called = await app.service.search(t.SearchArgs(repoId="repo", query="tests for toEntry"))
    assert found.hits, "the best guesses stay"
    assert found.note is not None and "no test file names or calls isExternal" in found.note
    assert called.note is None or "no test file" not in called.note, called.note
