"""Asked where a thing's type declarations are (`where are the type definitions for
http-cors`), the declarations files holding it come first. QA on middyjs/middy: that question
ranked packages/http-cors/index.js, whose options schema writes `type:` throughout, above its
index.d.ts."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.declarations_first import declarations_subject
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SCHEMA = "".join(
    f'    {name}: {{ type: "string" }},\n' for name in ("origin", "headers", "methods")
)
FILES = {
    "package.json": '{"name": "mw"}\n',
    "packages/http-cors/index.js": (
        "// http cors middleware: type definitions of the options live in index.d.ts\n"
        f"const optionSchema = {{\n  type: 'object',\n  properties: {{\n{SCHEMA}  }},\n}};\n"
        "export const httpCors = (opts = {}) => ({ after: (request) => opts });\n"
    ),
    "packages/http-cors/index.d.ts": (
        "export interface Options {\n  origin?: string;\n}\n"
        "declare function httpCors(options?: Options): object;\nexport default httpCors;\n"
    ),
    "packages/http-router/index.d.ts": (
        "// routes over http\nexport interface Route {\n  path: string;\n}\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    [
        "where are the type definitions for http-cors",
        "show me the typings of http-cors",
        "where is the d.ts file for http-cors?",
    ],
)
async def test_the_declarations_file_of_the_subject_is_first(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES, "mw") as app:
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == "packages/http-cors/index.d.ts", paths
        assert "packages/http-cors/index.js" in paths  # the code stays, below


def test_a_request_to_change_types_is_no_such_question() -> None:
    assert declarations_subject("fix types for http-cors") is None
    assert declarations_subject("add type definitions for the router") is None
    assert declarations_subject("where are the type definitions for http-cors") == "http-cors"
