"""`what depends on X` and `which packages depend on X` ask for X's importers, as `who imports
X` does. QA on tinyhttp/tinyhttp: `which packages depend on regexparam` placed none of the
files importing it (`who imports regexparam` placed them) and led with
packages/accepts/src/index.ts, whose path holds `packages`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import asks_importers, used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "packages/router/src/index.ts": (
        "import { parse as rg } from 'regexparam'\n\n"
        "export const compile = (path: string) => rg(path)\n"
    ),
    "packages/app/src/app.ts": (
        "import { parse } from 'regexparam'\n\nexport const route = (p: string) => parse(p)\n"
    ),
    "packages/accepts/src/index.ts": (
        "// the packages a request accepts: parse the params of each media type\n"
        "export const params = (header: string) => header.split(';')\n"
    ),
    "packages/cookie/src/index.ts": "export const parse = (s: string) => s.split('; ')\n",
}


@pytest.mark.parametrize(
    "query",
    [
        "which packages depend on regexparam",
        "what depends on regexparam?",
        "who requires regexparam",
    ],
)
def test_a_dependency_query_asks_for_importers(query: str) -> None:
    assert used_name(query) == "regexparam"
    assert asks_importers(query)


async def test_the_files_importing_a_package_depend_on_it(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="which packages depend on regexparam")
        )
    paths = [h.entry.path for h in answer.hits]
    assert set(paths[:2]) == {"packages/router/src/index.ts", "packages/app/src/app.ts"}, paths
    assert all(any(r.startswith("uses:") for r in h.reasons) for h in answer.hits[:2]), answer
