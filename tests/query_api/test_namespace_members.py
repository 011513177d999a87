"""A name a query qualifies by a TypeScript namespace (`Memory.Create` of `export * as Memory
from './memory.ts'`) is the declaration that namespace's module hands on. QA on
sinclairzx81/typebox: `what calls Memory.Create` placed none of its callers (no declaration
is called `Memory.Create`), and `where is Type.Object defined` ranked an enum member
`ByteMarker.Object` of another file first, above the module exporting `_Object_ as Object`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/system/memory/create.ts": (
        "export function Create(hidden: object, options: object = {}): object {\n"
        "  return { ...hidden, ...options }\n"
        "}\n"
    ),
    "src/system/memory/memory.ts": "export * from './create.ts'\n",
    "src/system/memory/index.ts": "export * as Memory from './memory.ts'\n",
    # another Create, which no file reaches through the namespace
    "src/value/create.ts": "export function Create(type: unknown): unknown {\n  return type\n}\n",
    "src/value/value.ts": (
        "import { Create } from './create.ts'\n\n"
        "export function Make(): unknown {\n  return Create(1)\n}\n"
    ),
    "src/types/any.ts": (
        "import { Memory } from '../system/memory/index.ts'\n\n"
        "export function Any(): object {\n"
        "  return Memory.Create({ kind: 'Any' })\n"
        "}\n"
    ),
    "src/types/object.ts": (
        "import { Memory } from '../system/memory/index.ts'\n\n"
        "export function _Object_(properties: object): object {\n"  # 3
        "  return Memory.Create({ kind: 'Object' }, properties)\n"
        "}\n"
        "export { _Object_ as Object }\n"
    ),
    "src/hashing/hash.ts": (
        "enum ByteMarker {\n  Array = 0,\n  Object = 8,\n}\n\n"
        "export function Marker(): number {\n  return ByteMarker.Object\n}\n"
    ),
    "src/typebox.ts": "export * from './types/any.ts'\nexport * from './types/object.ts'\n",
    "src/index.ts": "export * as Type from './typebox.ts'\n",
    "example/index.ts": (
        "import { Type } from '../src/index.ts'\n\n"
        "export const T = Type.Object({ x: Type.Any() })\n"
    ),
}


async def test_the_users_of_a_namespace_member_are_its_callers(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "what calls Memory.Create"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        placed = [
            h.entry.path for h in answer.hits if any(r.startswith("uses:") for r in h.reasons)
        ]
        assert set(placed) == {"src/types/any.ts", "src/types/object.ts"}, answer.hits
        assert [h.entry.path for h in answer.hits[:2]] == placed, answer.hits


async def test_a_namespace_member_is_defined_where_the_namespace_leads(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "where is Type.Object defined"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        first = answer.hits[0]
        assert first.entry.path == "src/types/object.ts", answer.hits
        # at the function the module exports as Object, not at a line mentioning it
        assert first.startLine == 3 and first.snippet, first
        assert first.snippet.startswith("3: export function _Object_"), first
        assert "src/hashing/hash.ts" not in [h.entry.path for h in answer.hits[:1]]
