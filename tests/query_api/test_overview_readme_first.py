"""`what does this project do` leads with the root README, before the entry file named with
it: QA on egoist/tsup ranked src/index.ts (embedded, and writing 'project' in a comment)
above README.md, both lifted for the overview and kept in the fusion's order."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LIBRARY = {
    "package.json": '{"name": "bundler", "main": "dist/index.js"}\n',
    "README.md": (
        "> [!WARNING]\n> This project is not actively maintained anymore.\n\n# bundler\n\n"
        "Bundle your library with no config.\n"
    ),
    "src/index.ts": (
        "import path from 'node:path'\nimport { run } from './run'\n\n"
        "/** Build the project from its options. */\n"
        "export async function build(options: object) {\n  return run(path.resolve('.'))\n}\n"
    ),
    "src/run.ts": "export function run(dir: string) {\n  return dir\n}\n",
}


async def test_an_overview_leads_with_the_readme_before_the_entry_file(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, LIBRARY, "bundler") as app:
        query = "what does this project do"
        found = await app.service.search(t.SearchArgs(repoId="bundler", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[:2] == ["README.md", "src/index.ts"], paths


async def test_an_entry_point_question_still_leads_with_the_entry_file(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, LIBRARY, "bundler") as app:
        query = "where is the entry point of the project"
        found = await app.service.search(t.SearchArgs(repoId="bundler", query=query))
        assert found.hits[0].entry.path == "src/index.ts", [h.entry.path for h in found.hits]
