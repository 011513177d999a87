"""repocontext_related names a file's tests though they reference nothing it declares: those
of a folder named for it (koa's `__tests__/request/*.test.js` for `lib/request.js`, built
through a helper) and those named for it (spec 3.6's naming convention: got's
`test/create.ts` exercises `got.create` through the package's index, not
`source/create.ts`). Over the real MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

FILES = {
    "lib/request.js": "module.exports = {\n  get host () { return this.get('Host') }\n}\n",
    "lib/response.js": "module.exports = {\n  get body () { return this._body }\n}\n",
    "lib/router/index.js": "module.exports = function route () {}\n",
    "test-helpers/context.js": "exports.request = () => require('../lib/request')\n",
    "__tests__/request/host.test.js": (
        "const request = require('../../test-helpers/context').request\n"
        "it('reads the host', () => { request().host })\n"
    ),
    "__tests__/request/ip.test.js": "const request = require('../../test-helpers/context')\n",
    "__tests__/response/body.test.js": "it('sets the body', () => {})\n",
    "__tests__/router/route.test.js": "it('routes', () => {})\n",
    # another package's request tests, and another language's: not lib/request.js's
    "packages/other/__tests__/request/other.test.js": "it('other', () => {})\n",
    "tests/request/test_host.py": "def test_host():\n    pass\n",
    # a fixture app's own `request` folder deeper in the test folder (nitro's
    # test/fixture/server/utils/ is no test of src/presets/vercel/utils.ts)
    "__tests__/fixtures/server/request/setup.js": "module.exports = {}\n",
    # the folders between the test folder and the named one mirror the code's
    "lib/adapter/bun/index.js": "module.exports = function serve () {}\n",
    "__tests__/adapter/bun/serve.test.js": "it('serves', () => {})\n",
}


NAMED = {
    "source/index.ts": "export {default as create} from './create.js'\n",
    "source/create.ts": "export default function create(options: object) { return options }\n",
    "source/core/options.ts": "export class Options {}\n",
    "test/create.ts": "import got from '../source/index.js'\ntest('create', () => got)\n",
    "test/helpers/create.ts": "export const helper = 1\n",  # a helper, no test
    # another language's test of the same name, and a Go test beside another folder's file
    "tests/test_create.py": "def test_create():\n    pass\n",
    "pkg/create.go": "package pkg\n\nfunc Create() {}\n",
    "pkg/create_test.go": "package pkg\n\nfunc TestIt(t *testing.T) {}\n",
    "other/create_test.go": "package other\n\nfunc TestOther(t *testing.T) {}\n",
    "lib/create.py": "def make():\n    return 1\n",
}


async def _tests_listed(
    tmp_path: Path, files: dict[str, str], expected: list[tuple[str, list[str]]]
) -> None:
    workspace = rig_settings(tmp_path).workspace_root
    assert workspace is not None
    for path, text in files.items():
        (workspace / "repo" / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / "repo" / path).write_text(text)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for subject, tests_of in expected:
            related = await call(s, "repocontext_related", {"repoId": "repo", "path": subject})
            tests = sorted({t["path"] for t in related.get("tests", [])})
            assert tests == tests_of, (subject, related)


async def test_related_names_the_tests_in_a_folder_named_for_the_file(tmp_path: Path) -> None:
    await _tests_listed(
        tmp_path,
        FILES,
        [
            ("lib/request.js", ["__tests__/request/host.test.js", "__tests__/request/ip.test.js"]),
            ("lib/response.js", ["__tests__/response/body.test.js"]),
            ("lib/router/index.js", ["__tests__/router/route.test.js"]),  # called by its folder
            ("lib/adapter/bun/index.js", ["__tests__/adapter/bun/serve.test.js"]),
            # the helper's own tests are the files requiring it (dependents in test files)
            (
                "test-helpers/context.js",
                ["__tests__/request/host.test.js", "__tests__/request/ip.test.js"],
            ),
        ],
    )


async def test_related_names_the_tests_named_for_the_file(tmp_path: Path) -> None:
    await _tests_listed(
        tmp_path,
        NAMED,
        [
            ("source/create.ts", ["test/create.ts"]),
            ("pkg/create.go", ["pkg/create_test.go"]),
            ("lib/create.py", ["tests/test_create.py"]),
            ("source/core/options.ts", []),
        ],
    )


SETTINGS = {
    "app/config.py": "class Config:\n    workers = 1\n",
    "tests/test_config.py": "from app.config import Config\n\n\ndef test_it():\n    Config()\n",
    # modules of settings a test loads, in a folder named for config.py: no tests
    "tests/config/test_cfg.py": 'bind = "unix:/tmp/bar"\nworkers = 3\n',
    "tests/config/test_cfg_alt.py": 'proc_name = "alt"\n',
    # a unittest case is a test, whatever its file holds besides
    "tests/config/test_loading.py": (
        "import unittest\n\n\nclass LoadingTests(unittest.TestCase):\n    pass\n"
    ),
}


async def test_a_module_of_settings_named_as_a_test_is_no_test(tmp_path: Path) -> None:
    """QA on benoitc/gunicorn: tests/config/test_cfg.py (`bind = ...`, `workers = 3`, loaded
    by tests of the config) was listed as a test of gunicorn/config.py, and `tests for
    reload_extra_files` placed three such files above config.py."""
    await _tests_listed(
        tmp_path,
        SETTINGS,
        [("app/config.py", ["tests/config/test_loading.py", "tests/test_config.py"])],
    )


HELPERS = {
    "src/utils.ts": "export function slash(p: string) {\n  return p.replace(/\\\\/g, '/')\n}\n",
    "test/index.test.ts": (
        "import { run } from './utils'\n\ntest('builds', async () => {\n  await run('x')\n})\n"
    ),
    # the helpers the tests share, unmarked beside them: no test of src/utils.ts
    "test/utils.ts": (
        "import { expect } from 'vitest'\n\nexport function getTestName() {\n"
        "  return expect.getState().currentTestName\n}\n\n"
        "export async function run(title: string) {\n  return /x/.test(title)\n}\n"
    ),
    # an unmarked test that ava runs is one (got's test/create.ts)
    "src/create.ts": "export const create = () => ({})\n",
    "test/create.ts": "import test from 'ava'\n\ntest('creates', (t) => {\n  t.pass()\n})\n",
}


async def test_an_unmarked_helper_beside_the_tests_is_no_test(tmp_path: Path) -> None:
    """QA on egoist/tsup: test/utils.ts (getTestName, run: helpers the vitest files call)
    was listed as the tests of src/utils.ts, and placed first for `tests for
    defaultOutExtension`."""
    await _tests_listed(
        tmp_path,
        HELPERS,
        [("src/utils.ts", []), ("src/create.ts", ["test/create.ts"])],
    )
