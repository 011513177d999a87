"""A request to update a dependency of a Deno project ranks first the file declaring it by
its specifier: Deno's `deps.ts` convention (`export { pathToRegexp } from
"npm:path-to-regexp@^6.3.0"`), where the version is written. QA on oakserver/oak: `update
path-to-regexp to 6.3.0` ranked router.ts (`pathToRegexp(...)`) and resolve_path.ts
(`UP_PATH_REGEXP`) above deps.ts: deps.ts was no manifest, and `path-to-regexp@^6.3.0` did
not count as naming the package (the `@` of its version read as part of a longer name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.dependency_updates import declares, is_manifest
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "deps.ts": (
        'export { concat } from "jsr:@std/bytes@^1.0/concat";\n'
        "export {\n  compile,\n  pathToRegexp,\n  type TokensToRegexpOptions,\n"
        '} from "npm:path-to-regexp@^6.3.0";\n'
    ),
    "router.ts": (
        'import { pathToRegexp } from "./deps.ts";\n\n'
        "/** Match a path to a regexp, as path-to-regexp does. */\n"
        "export class Layer {\n  #regexp = pathToRegexp(this.path);\n"
        "  constructor(public path: string) {}\n}\n"
    ),
    "resolve_path.ts": "const UP_PATH_REGEXP = /x/; // a path regexp\nexport { UP_PATH_REGEXP };\n",
}


async def test_a_deno_dependency_update_ranks_its_deps_file_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("update path-to-regexp to 6.3.0", "chore(deps): bump @std/bytes to 1.0.4"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "deps.ts", (query, found["hits"])


def test_what_declares_a_deno_dependency() -> None:
    assert is_manifest("deps.ts") and is_manifest("src/dev_deps.ts")
    assert is_manifest("deps_test.ts") and not is_manifest("src/deps_helper.ts")
    assert declares('} from "npm:path-to-regexp@^6.3.0";', "path-to-regexp")
    assert declares('from "jsr:@std/bytes@^1.0/concat";', "@std/bytes")
    assert declares('"imports": { "@std/http": "jsr:@std/http@1.0.9" }', "@std/http")
    # a longer name is no use of it, nor a scope's package
    assert not declares('from "npm:path-to-regexp-ext@1.0.0";', "path-to-regexp")
    assert not declares('from "jsr:@std/bytes@^1.0/concat";', "bytes")
