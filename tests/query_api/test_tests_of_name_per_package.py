"""A question about the tests of a name several packages of a monorepo declare says each test
tests its own package's declaration, not the first one found (ladder._tests_using,
test_users.nearest_declaring). QA on statelyai/xstate: `which tests cover the vue useActor`
said packages/xstate-react/test/useActor.test.tsx and xstate-solid's tested
packages/xstate-vue/src/useActor.ts, and ranked them above xstate-vue's own test, as every
file declaring useActor was given every test calling it."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

PACKAGES = ("react", "solid", "vue")


def _files() -> dict[str, str]:
    files = {"package.json": '{"name": "mono", "private": true}\n'}
    for name in PACKAGES:
        files[f"packages/{name}/package.json"] = f'{{"name": "@mono/{name}"}}\n'
        files[f"packages/{name}/src/useActor.ts"] = (
            "export function useActor(logic: unknown) {\n"
            f"  return {{ logic, kind: '{name}' }};\n"
            "}\n"
        )
        files[f"packages/{name}/test/useActor.test.ts"] = (
            "import { useActor } from '../src/useActor';\n\n"
            "describe('useActor', () => {\n"
            "  it('returns the logic', () => {\n"
            "    expect(useActor(1).logic).toBe(1);\n"
            "  });\n"
            "});\n"
        )
    return files


def _package(path: str) -> str:
    return path.split("/")[1]


async def test_each_test_tests_its_own_packages_declaration(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, _files()) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="which tests cover the vue useActor")
        )
    for hit in answer.hits:
        path = hit.entry.path or ""
        tested = [r.removeprefix("tests:") for r in hit.reasons if r.startswith("tests:")]
        assert all(_package(s) == _package(path) for s in tested), (path, hit.reasons)
    paths = [hit.entry.path for hit in answer.hits]
    assert paths[0] == "packages/vue/test/useActor.test.ts", paths
