"""A query for the users of a name no file declares, one the repository takes from another
package (`what calls createHttpError`), places the files calling it first. QA on
oakserver/oak: nothing declares `createHttpError` (deps.ts re-exports it from
`jsr:@oak/commons/http_errors`), so no user was placed and no hit had a `uses:` reason,
where eight files call it."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "deps.ts": 'export { createHttpError, Status } from "jsr:@oak/commons@^1.0/http_errors";\n',
    "mod.ts": 'export { createHttpError } from "./deps.ts";\n',
    "body.ts": (
        'import { createHttpError } from "./deps.ts";\n\n'
        "export function parse(text: string): string {\n"
        '  if (!text) throw createHttpError(400, "Missing content type.");\n'
        "  return text;\n"
        "}\n"
    ),
    "context.ts": (
        "/** Throws an HTTP error when the condition fails: create one with the status. */\n"
        "export function check(condition: boolean): void {\n"
        "  if (!condition) throw new Error('create http error');\n"
        "}\n"
    ),
}


async def test_the_callers_of_a_name_from_another_package_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "oak") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="oak", query="what calls createHttpError")
        )
        first = found.hits[0]
        assert first.entry.path == "body.ts", [h.entry.path for h in found.hits]
        assert "uses:createHttpError" in first.reasons, first.reasons
        assert first.snippet is not None and "createHttpError(400" in first.snippet, first
        paths = [h.entry.path for h in found.hits]
        assert "context.ts" not in paths[:1] and paths.index("body.ts") < paths.index("deps.ts")
