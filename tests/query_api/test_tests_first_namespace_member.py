"""A question about the tests of a qualified name (`tests for Value.Clean`, Clean reached
through the namespace `export * as Value`) places the test files using it first. QA on
sinclairzx81/typebox: its tests, test/typebox/runtime/value/clean/*.ts, are named for no
source file, and the answer put src/value/clean/clean.ts, from_record.ts and a metrics task
above them, not as tests of clean.ts: the name was no tested name (one word each side of the
dot), and no declaration is called `Value.Clean`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval import tests_first
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/value/clean/clean.ts": (
        "/** Cleans a value of the properties its type does not name. */\n"
        "export function Clean(type: object, value: unknown): unknown {\n  return value\n}\n"
    ),
    **{
        f"src/value/clean/from_{kind}.ts": (
            f"// clean a {kind} value: clean each value the {kind} value holds\n"
            f"export function CleanValue{kind.title()}(value: unknown): unknown {{\n"
            "  return value // the clean value\n}\n"
        )
        for kind in ("record", "object", "array", "tuple", "union", "intersect")
    },
    "src/value/value.ts": "export { Clean } from './clean/clean.ts'\n",
    "src/value/index.ts": "export * as Value from './value.ts'\n",
    "test/runtime/value/clean/object.ts": (
        "import { Value } from '../../../../src/value/index.ts'\n\n"
        "Deno.test('Should Clean 1', () => {\n  Value.Clean({}, { x: 1 })\n})\n"
    ),
    "test/runtime/value/clean/union.ts": (
        "import { Value } from '../../../../src/value/index.ts'\n\n"
        "Deno.test('Should Clean 2', () => {\n  Value.Clean({}, [1])\n})\n"
    ),
}


def test_a_qualified_name_is_a_tested_name() -> None:
    assert tests_first.tested_name("tests for Value.Clean") == "Value.Clean"
    assert tests_first.tested_name("where are the tests for Value.Repair") == "Value.Repair"
    assert tests_first.tested_name("tests for clean.ts") is None  # a file's name


async def test_the_tests_using_a_namespace_member_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "tests for Value.Clean"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        tests = {"test/runtime/value/clean/object.ts", "test/runtime/value/clean/union.ts"}
        assert set(paths[:2]) == tests, paths
        # placed as the tests of the file declaring it, above it
        for hit in answer.hits[:2]:
            assert "tests:src/value/clean/clean.ts" in hit.reasons, hit
        assert paths.index("src/value/clean/clean.ts") == 2, paths
