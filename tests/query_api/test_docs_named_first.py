"""Asked for the docs of a thing (`docs for the http-json-body-parser middleware`), the page
named for it, by its file or its folder, leads the pages holding its words. QA on
middyjs/middy: that middleware's page came seventh, below five upgrade guides listing every
middleware and a neighbour's page linking to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LISTING = "".join(
    f"### {name}\n\nThe {name} middleware (http json body parser) changed its options.\n\n"
    for name in ("http-json-body-parser", "http-urlencode-body-parser", "http-json-body-parser")
)
FILES = {
    "package.json": '{"name": "mw"}\n',
    "packages/json/index.js": "export const parse = (body) => JSON.parse(body);\n",
    "site/routes/docs/upgrade/1-2/+page.md": "# Upgrade 1 to 2\n\n" + LISTING,
    "site/routes/docs/upgrade/2-3/+page.md": "# Upgrade 2 to 3\n\n" + LISTING,
    "site/routes/docs/upgrade/3-4/+page.md": "# Upgrade 3 to 4\n\n" + LISTING,
    "site/routes/docs/middlewares/validator/+page.md": (
        "# validator\n\nUse the http-json-body-parser middleware before this middleware.\n"
    ),
    "site/routes/docs/middlewares/http-json-body-parser/+page.md": (
        "# http-json-body-parser\n\nParses a JSON body into an object.\n"
    ),
}


async def test_the_page_named_for_the_subject_is_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "mw") as app:
        query = "docs for the http-json-body-parser middleware"
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "site/routes/docs/middlewares/http-json-body-parser/+page.md", paths
