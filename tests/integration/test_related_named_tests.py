"""repocontext_related names the test files named for a file (spec 3.6, "tests (naming
convention)") though they reference nothing it declares: sindresorhus/got's
`test/create.ts` exercises `got.create` through the package's index, not `source/create.ts`.
Over the real MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

FILES = {
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


async def test_related_names_the_tests_named_for_the_file(tmp_path: Path) -> None:
    workspace = rig_settings(tmp_path).workspace_root
    assert workspace is not None
    for path, text in FILES.items():
        (workspace / "repo" / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / "repo" / path).write_text(text)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for subject, expected in (
            ("source/create.ts", ["test/create.ts"]),
            ("pkg/create.go", ["pkg/create_test.go"]),
            ("lib/create.py", ["tests/test_create.py"]),
            ("source/core/options.ts", []),
        ):
            related = await call(s, "repocontext_related", {"repoId": "repo", "path": subject})
            tests = sorted({t["path"] for t in related.get("tests", [])})
            assert tests == expected, (subject, related)
