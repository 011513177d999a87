"""A config question asking for a workflow (`which workflow publishes to npm`) is answered by
the CI files holding its other words, before a tool's dotfile and the manifests holding them.
QA on middyjs/middy: it put websites/.npmrc and four package.json files holding
`publishConfig` above .github/workflows/release.yml's `npm publish` job."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MANIFEST = (
    '{{\n  "name": "@mw/{name}",\n  "publishConfig": {{ "access": "public" }},\n'
    '  "scripts": {{ "test": "npm run test:unit" }}\n}}\n'
)
FILES = {
    "package.json": '{"name": "mw", "scripts": {"release": "npm publish"}}\n',
    "site/.npmrc": "engine-strict=true\n",
    **{f"packages/{n}/package.json": MANIFEST.format(name=n) for n in ("a", "b", "c", "d")},
    "packages/a/index.js": "export const a = 1;\n",
    ".github/workflows/test.yml": (
        "name: Tests\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - run: npm ci\n      - run: npm test\n"
    ),
    ".github/workflows/release.yml": (
        "name: Release\non:\n  release:\n    types: [published]\njobs:\n  publish:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci\n"
        "      - run: npm publish --provenance\n"
    ),
}


async def test_the_workflow_asked_for_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "mw") as app:
        query = "which workflow publishes to npm"
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == ".github/workflows/release.yml", paths
