"""A users query naming a module by its kind (`which files import the guard module`, `who
imports the format package`) asks for that module's importers. QA on sinclairzx81/typebox:
`which files import the guard module` matched no users form and ranked src/guard/index.ts,
then src/type/action/module.ts for the word `module`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/guard/guard.ts": (
        "export function IsObject(value: unknown): boolean {\n  return !!value\n}\n"
    ),
    "src/guard/index.ts": "export * as Guard from './guard.ts'\n",
    "src/settings.ts": (
        "import { Guard } from './guard/index.ts'\n\n"
        "export function Set(value: unknown): boolean {\n  return Guard.IsObject(value)\n}\n"
    ),
    "src/type/module.ts": (
        "// a module of types: the module's declarations\nexport const Module = 1\n"
    ),
}


def test_a_module_written_with_its_kind_is_the_name() -> None:
    assert used_name("which files import the guard module") == "guard"
    assert used_name("who imports the format package") == "format"


async def test_the_importers_of_a_module_named_by_its_kind_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "which files import the guard module"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        first = answer.hits[0]
        assert first.entry.path == "src/settings.ts", answer.hits
        assert "uses:guard" in first.reasons, first
