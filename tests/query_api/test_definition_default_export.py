"""A definition query for the name a TS/JS file's anonymous default export is imported as
(`import generateId from './logic/generateId'`) means that export: QA on
react-hook-form/react-hook-form, `where is generateId defined` answered
src/logic/generateId.ts first, yet said `none of these hits declares generateId`, and a
longer file of the kind was pointed at lines sharing the query's words, not at its export
(query_api/retrieval/default_exports.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.default_exports import anonymous_default_line
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

GENERATE_ID = (
    "import fallback from './fallback';\n"
    "\n"
    "export default () =>\n"
    "  typeof crypto !== 'undefined' ? crypto.randomUUID() : fallback();\n"
)
VALIDATE_FIELD = (
    "import type { Field } from '../types';\n"
    "import isEmpty from '../utils/isEmpty';\n"
    "\n"
    "const messageOf = (field: Field) => field.message;\n"
    "\n"
    "export default async <T extends object>(\n"
    "  field: Field,\n"
    "  values: T,\n"
    "): Promise<string[]> => {\n"
    "  return isEmpty(values) ? [messageOf(field)] : [];\n"
    "};\n"
)
FILES = {
    "src/logic/generateId.ts": GENERATE_ID,
    "src/logic/fallback.ts": "export default function fallback() {\n  return 'id';\n}\n",
    "src/logic/validateField.ts": VALIDATE_FIELD,
    "src/utils/isEmpty.ts": "export default (value: object) => !Object.keys(value).length;\n",
    "src/useFieldArray.ts": (
        "import generateId from './logic/generateId';\n"
        "import validateField from './logic/validateField';\n\n"
        "export const useFieldArray = () => validateField({}, { id: generateId() });\n"
    ),
}


async def test_the_file_default_exporting_the_name_defines_it(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is generateId defined")
        )
        validate = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is validateField defined")
        )
    assert found.hits[0].entry.path == "src/logic/generateId.ts"
    assert "declares" not in (found.note or ""), found.note
    assert (found.hits[0].startLine, found.hits[0].endLine) == (3, 4)
    first = validate.hits[0]
    assert first.entry.path == "src/logic/validateField.ts"
    assert (first.startLine, first.endLine) == (6, 11), first.snippet
    assert "declares" not in (validate.note or ""), validate.note


def test_only_an_anonymous_default_export_of_the_file_so_named_counts() -> None:
    assert anonymous_default_line("src/a/generateId.ts", GENERATE_ID, "generateid") == 3
    assert anonymous_default_line("src/get/index.js", "export default function (o) {}", "get") == 1
    assert anonymous_default_line("src/other.ts", GENERATE_ID, "generateId") is None
    named = "function fallback() {}\nexport default fallback;\n"
    assert anonymous_default_line("src/fallback.ts", named, "fallback") is None
    declared = "export default function fallback() {}\n"
    assert anonymous_default_line("src/fallback.ts", declared, "fallback") is None
    assert anonymous_default_line("src/generateId.py", GENERATE_ID, "generateId") is None
