"""A definition query for a name no file declares, exports or takes in (`where is the CLI
defined`) places the source files named for it (`src/cli-main.ts`, `src/cli-node.ts`) first
(query_api/retrieval/defining_files.named_source_files). QA on egoist/tsup ranked index.ts and
options.ts, writing `CLI flags` in comments, above src/cli-main.ts."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "package.json": '{"name": "bundler", "bin": {"bundler": "dist/cli-node.js"}}\n',
    "src/index.ts": (
        "/** The options derived from CLI flags, the CLI's own */\n"
        "export const defineConfig = (options: object) => options\n"
        "/** Optional config name to show in CLI output */\n"
        "export const cliName = 'CLI'\n"
    ),
    "src/options.ts": (
        "export type Options = {\n  /** Optional config name to show in CLI output */\n"
        "  name?: string\n  /** the CLI's flags: see the CLI */\n  watch?: boolean\n}\n"
    ),
    "src/cli-main.ts": (
        "import { cac } from 'cac'\n\nexport async function main() {\n"
        "  const program = cac('bundler')\n  program.option('--watch', 'Watch mode')\n"
        "  program.parse(process.argv)\n}\n"
    ),
    "src/cli-node.ts": "import { main } from './cli-main'\n\nmain()\n",
    "test/cli.test.ts": "import { main } from '../src/cli-main'\n\ntest('runs', () => main())\n",
}


async def test_the_files_named_for_an_undeclared_name_lead(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "bundler") as app:
        query = "where is the CLI defined"
        found = await app.service.search(t.SearchArgs(repoId="bundler", query=query))
        paths = [h.entry.path for h in found.hits]
        assert set(paths[:2]) == {"src/cli-main.ts", "src/cli-node.ts"}, paths
