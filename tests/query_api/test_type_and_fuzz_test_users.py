"""TSTyche's and tsd's type tests and Jazzer.js's fuzz tests are tests wherever a test is told
from code by its name (query_api/symbols/dependents.is_test_path), as path_roles counts them.
QA on middyjs/middy: `what uses getInternal` placed packages/util/index.tst.ts among the code
calling it, and `related packages/http-cors/index.js` listed index.tst.ts and index.fuzz.js as
its dependents rather than its tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.dependents import is_test_path
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_type_tests_and_fuzz_tests_are_tests() -> None:
    for path in ("packages/util/index.tst.ts", "src/x.test-d.ts", "packages/core/index.fuzz.js"):
        assert is_test_path(path), path
    assert not is_test_path("src/fuzz.js") and not is_test_path("src/tst.ts")


CALLS = "".join(f"  await getInternal('k{i}', request);\n" for i in range(6))
FILES = {
    "package.json": '{"name": "mw"}\n',
    "util/index.js": "export const getInternal = async (keys, request) => request[keys];\n",
    "rds/index.js": (
        "import { getInternal } from '../util/index.js';\n"
        "export const before = async (request) => getInternal('token', request);\n"
    ),
    "util/index.tst.ts": (
        "import { getInternal } from './index.js';\n"
        f"test('getInternal', async () => {{\n  const request = {{}};\n{CALLS}}});\n"
    ),
    "util/index.fuzz.js": (
        "import { getInternal } from './index.js';\n"
        f"test('fuzz', async () => {{\n  const request = {{}};\n{CALLS}}});\n"
    ),
}


async def test_the_code_using_a_name_comes_before_its_type_and_fuzz_tests(
    tmp_path: Path,
) -> None:
    async with indexed_app(tmp_path, FILES, "mw") as app:
        found = await app.service.search(t.SearchArgs(repoId="mw", query="what uses getInternal"))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "rds/index.js", paths
