"""repocontext_related names the tests of a folder named for the file (koa's
`__tests__/request/*.test.js` for `lib/request.js`): they build the request through a
helper, so no reference of theirs names what the file declares. Over the real MCP client."""

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
}


async def test_related_names_the_tests_in_a_folder_named_for_the_file(tmp_path: Path) -> None:
    workspace = rig_settings(tmp_path).workspace_root
    assert workspace is not None
    for path, text in FILES.items():
        (workspace / "repo" / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / "repo" / path).write_text(text)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for subject, expected in (
            ("lib/request.js", ["__tests__/request/host.test.js", "__tests__/request/ip.test.js"]),
            ("lib/response.js", ["__tests__/response/body.test.js"]),
            ("lib/router/index.js", ["__tests__/router/route.test.js"]),  # called by its folder
            # the helper's own tests are the files requiring it (dependents in test files)
            (
                "test-helpers/context.js",
                ["__tests__/request/host.test.js", "__tests__/request/ip.test.js"],
            ),
        ):
            related = await call(s, "repocontext_related", {"repoId": "repo", "path": subject})
            tests = sorted({t["path"] for t in related.get("tests", [])})
            assert tests == expected, (subject, related)
