"""A query for the users of a name written as a value (`what calls invalidateDependents`)
is not answered by the users of a type spelled so but for its capital
(`InvalidateDependents`). QA on pmndrs/jotai: the type alias was taken for the name, so the
one `uses:` hit was internals.ts, pointed at the tuple label `invalidateDependents:
InvalidateDependents` (line 186), not at its calls `invalidateDependents(store, a)`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/types.ts": (
        "export type Store = { id: number }\n"
        "export type InvalidateDependents = (store: Store, atom: unknown) => void\n"
        "export type Blocks = [invalidateDependents: InvalidateDependents]\n"
    ),
    "src/impl.ts": (
        "import type { InvalidateDependents, Store } from './types.ts'\n\n"
        "export const defaultInvalidate: InvalidateDependents = (store: Store) => {\n"
        "  console.log(store.id)\n"
        "}\n"
    ),
    "src/write.ts": (
        "import type { Blocks, Store } from './types.ts'\n\n"
        "export function writeAtom(blocks: Blocks, store: Store, atoms: unknown[]): void {\n"
        "  const invalidateDependents = blocks[0]\n"
        "  for (const a of atoms) {\n"
        "    invalidateDependents(store, a)\n"
        "  }\n"
        "}\n"
    ),
}


async def test_the_callers_of_a_value_are_not_the_users_of_its_type(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "jotai") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="jotai", query="what calls invalidateDependents")
        )
        first = found.hits[0]
        assert first.entry.path == "src/write.ts", [(h.entry.path, h.reasons) for h in found.hits]
        assert "uses:invalidateDependents" in first.reasons, first.reasons
        assert first.snippet is not None and "invalidateDependents(store, a)" in first.snippet
        # the type's own name still finds the type's users
        found = await app.service.search(
            t.SearchArgs(repoId="jotai", query="what uses InvalidateDependents")
        )
        assert found.hits[0].entry.path == "src/impl.ts", [h.entry.path for h in found.hits]
