"""A question writing a verb as its participle (`where is the cache cleared`) points its hit
at the line writing the verb's stem in a name (`clearCache`). QA on middyjs/middy: that
question pointed packages/util/index.js at `const sanitizeKeyCache = new Map()`, which holds
`cache` alone, not at `export const clearCache = (inputKeys = null) => {`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

UTIL = (
    "const sanitizeKeyCache = new Map();\n"
    "export const sanitizeKey = (key) => sanitizeKeyCache.get(key) ?? key;\n"
    "\n"
    "const cache = new Map();\n"
    "export const getCache = (key) => cache.get(key);\n"
    "\n"
    "export const clearCache = (inputKeys = null) => {\n"
    "  if (inputKeys === null) cache.clear();\n"
    "};\n"
)


async def test_the_hit_is_at_the_name_holding_the_participle_s_stem(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, {"src/util.js": UTIL}) as app:
        query = "where is the cache cleared"
        found = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        hit = next(h for h in found.hits if h.entry.path == "src/util.js")
        assert hit.startLine is not None and hit.startLine >= 7, hit
        assert "clearCache" in (hit.snippet or ""), hit
