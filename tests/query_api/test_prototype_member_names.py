"""A JavaScript prototype path (`Context.prototype.assert()`) names the class's member
(`Context.assert`), as outline and the views name it. QA on oakserver/oak: the commit
subject `allow setting headers and expose on \\`Context.prototype.assert()\\`` ranked
application.ts (a call `assert(context, ...)`) above context.ts, which declares
Context.assert, and `where is Context.prototype.assert defined` noted "none of these hits
declares assert" over context.ts's declaration of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.qualified_names import prototype_members, qualified_names
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

CONTEXT = (
    "export class Context {\n"
    "  assert(\n"
    "    condition: unknown,\n"
    "    status = 500,\n"
    "    message?: string,\n"
    "  ): asserts condition {\n"
    "    if (condition) return;\n"
    "    throw new Error(message);\n"
    "  }\n"
    "}\n"
)
APPLICATION = (
    'import { assert } from "./deps.ts";\n'
    'import { Context } from "./context.ts";\n\n'
    "export class Application {\n"
    "  handle(): Context {\n"
    "    const context = new Context();\n"
    '    assert(context, "Context was not created.");\n'
    "    return context;\n"
    "  }\n"
    "}\n"
)
GUARD = 'export { assert } from "jsr:@std/assert@^1.0/assert";\n'


def test_a_prototype_path_is_written_as_the_member() -> None:
    assert prototype_members("fix `Context.prototype.assert()` now") == (
        "fix `Context.assert()` now"
    )
    assert prototype_members("Array.prototype.#hidden and a.prototype") == (
        "Array.#hidden and a.prototype"
    )
    assert qualified_names("expose on `Context.prototype.assert()`") == [("Context", "assert")]


async def test_the_file_declaring_the_member_answers_the_prototype_path(tmp_path: Path) -> None:
    files = {"context.ts": CONTEXT, "application.ts": APPLICATION, "deps.ts": GUARD}
    async with indexed_app(tmp_path, files, "oak") as app:
        for query in (
            "where is Context.prototype.assert defined",
            "allow setting headers on `Context.prototype.assert()`",
        ):
            found = await app.service.search(t.SearchArgs(repoId="oak", query=query))
            assert [h.entry.path for h in found.hits][:1] == ["context.ts"], query
            assert found.note is None or "none of these hits" not in found.note, found.note
            assert found.query == query, found.query  # the answer names the query as asked
