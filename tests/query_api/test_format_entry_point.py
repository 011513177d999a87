"""An entry-point question naming a JavaScript module format or target (`where is the ESM
entry point`, `what is the CommonJS entry point`) is answered by the package.json mapping each
to its file, shown at its entry fields, then the entry files. QA on axios/axios: it matched no
entry form and ranked bin/contributors.js (`entry.points = ...`) first."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MANIFEST = (
    "{\n"
    '  "name": "kite",\n'
    '  "type": "module",\n'
    '  "main": "index.js",\n'
    '  "exports": {\n'
    '    ".": {\n'
    '      "require": "./dist/node/kite.cjs",\n'
    '      "default": "./index.js"\n'
    "    }\n"
    "  },\n"
    '  "devDependencies": {\n'
    '    "@rollup/plugin-multi-entry": "^4.1.0"\n'
    "  }\n"
    "}\n"
)
CONTRIBUTORS = (
    "const entries = [];\n"
    "for (const entry of entries) {\n"
    "  entry.points = entry.insertions + entry.deletions;\n"
    "}\n"
)
FILES = {
    "package.json": MANIFEST,
    "index.js": "import kite from './lib/kite.js';\n\nexport default kite;\n",
    "lib/kite.js": "export default function kite() {\n  return 1;\n}\n",
    "bin/contributors.js": CONTRIBUTORS,
}


@pytest.mark.parametrize(
    "query", ["where is the ESM entry point", "what is the CommonJS entry point"]
)
async def test_a_format_entry_point_is_the_manifest_then_the_entry(
    tmp_path: Path, query: str
) -> None:
    async with indexed_app(tmp_path, FILES, "kite") as app:
        found = await app.service.search(t.SearchArgs(repoId="kite", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[:2] == ["package.json", "index.js"], paths
        manifest = found.hits[0]
        assert (manifest.startLine, manifest.endLine) == (4, 5), manifest


@pytest.mark.parametrize(
    "query", ["which file exports the public API", "where is the public API exported"]
)
async def test_the_public_api_is_the_entry_file(tmp_path: Path, query: str) -> None:
    """QA on axios/axios: karma.conf.cjs (`module.exports = function(config)`) ranked first
    and index.js, the package's entry re-exporting lib/axios.js, was not in the first ten."""
    files = {
        **FILES,
        "karma.conf.cjs": "module.exports = function(config) {\n  return config;\n};\n",
    }
    async with indexed_app(tmp_path, files, "kite") as app:
        found = await app.service.search(t.SearchArgs(repoId="kite", query=query))
        assert [h.entry.path for h in found.hits][:1] == ["index.js"], found.hits
