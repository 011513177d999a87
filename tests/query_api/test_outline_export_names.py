"""A TS/JS module's outline names what it exports without declaring it: a declaration of its
own exported under another name (`export { _Object_ as Object }`) and a module re-exported as a
namespace (`export * as Type from './typebox'`). QA on sinclairzx81/typebox: the outline of
src/type/types/object.ts listed `_Object_` and no `Object`, and src/index.ts, whose `Type` is
the library's API, listed nothing (query_api/symbols/export_outline.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.export_outline import exported_rows, is_export_statement
from schemas.symbols import OutlineArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

OBJECT = (
    "export interface TObject { type: 'object' }\n\n"
    "function _Object_(properties: object): TObject {\n  return { type: 'object' }\n}\n\n"
    "export { _Object_ as Object } // not the global Object\n"
    "export { TObject as TObjectAlias, helper }\n"
    "export { Other as Renamed } from './other'\n"
)
INDEX = (
    "export * from './types/object'\n\n"
    "export * as Type from './typebox'\n"
    "import * as Type from './typebox'\nexport default Type\n"
)
FILES = {
    "src/types/object.ts": OBJECT,
    "src/typebox.ts": "export { _Object_ as Object } from './types/object'\n",
    "src/index.ts": INDEX,
}


async def test_a_modules_renamed_and_namespace_exports_are_outlined(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        outline = await app.services.symbols.outline(
            OutlineArgs(repoId="repo", path="src/types/object.ts")
        )
        rows = {(s.fullyQualifiedName, s.kind, s.startLine) for s in outline.symbols}
        assert ("Object", "Function", 7) in rows, outline.symbols
        assert ("TObjectAlias", "Interface", 8) in rows, outline.symbols
        assert "Renamed" not in {s.fullyQualifiedName for s in outline.symbols}  # another's
        index = await app.services.symbols.outline(OutlineArgs(repoId="repo", path="src/index.ts"))
        assert [(s.fullyQualifiedName, s.kind, s.startLine) for s in index.symbols] == [
            ("Type", "Namespace", 3)
        ]
        assert index.symbols[0].signature == "export * as Type from './typebox'"
        # a barrel still says where its code is
        assert index.note is not None and "src/types/object.ts" in index.note, index.note


def test_an_export_in_a_comment_or_under_its_declared_name_is_none() -> None:
    body = "// export { a as B }\nexport { C as C }\nexport * as D from './d'\n"
    rows = exported_rows("r", "m.ts", body, [])
    assert [(r.name, r.start_line) for r in rows] == [("D", 3)]
    assert is_export_statement("export { _Object_ as Object }")
    assert not is_export_statement("function _Object_(p: object): TObject")
