"""A pasted error message ranks first the file whose string spells it, its values filled in
(query_api/retrieval/pasted_message.py), a subject filled in unquoted too: QA on
jquense/yup, `Error: The schema does not contain the path` ranked src/schema.ts, full of
`schema` and `path`, above src/util/reach.ts, whose template reads `The schema does not
contain the path: ${path}`; `ValidationError: email must be a valid email`, from
`${path} must be a valid email`, ranked ValidationError.ts above locale.ts. The real index,
the keyword ladder, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/schema.ts": (
        "export interface CastOptions {\n  path?: string;\n  schema?: Schema;\n}\n\n"
        "export default class Schema {\n"
        "  path = '';\n"
        "  // the schema of a path: does the schema contain the path's schema? it does\n"
        "  // not contain it when the path is not the schema's; a schema does not hold\n"
        "  // the path it does contain, the parent schema holds the path\n"
        "  // a schema does not contain a path: the path does not name the schema\n"
        "  contains(path: string): boolean {\n    return !!path && !this.path;\n  }\n\n"
        "  resolve(path: string): Schema {\n"
        "    return path ? this : this;\n  }\n\n"
        "  describe(path: string) {\n    return { schema: this, path };\n  }\n}\n"
    ),
    "src/util/reach.ts": (
        "export function getIn(schema: any, path: string) {\n"
        "  let parent = schema;\n"
        "  if (!parent.fields) {\n"
        "    throw new Error(\n"
        "      `The schema does not contain the path: ${path}. ` +\n"
        "        `(failed at: ${parent})`,\n"
        "    );\n  }\n  return parent;\n}\n"
    ),
    "src/ValidationError.ts": (
        "export default class ValidationError extends Error {\n"
        "  value: any;\n  type?: string;\n"
        "  // the value, cast to its final type, is the value this error holds\n"
        "  constructor(message: string, value: any, type?: string) {\n"
        "    super(message);\n    this.value = value;\n    this.type = type;\n  }\n}\n"
    ),
    "src/locale.ts": (
        "export const mixed = {\n"
        "  notType: ({ path, type }: any) =>\n"
        "    `${path} must be a \\`${type}\\` type, but the final value was: x`,\n};\n\n"
        "export const string = {\n  email: '${path} must be a valid email',\n};\n"
    ),
}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("Error: The schema does not contain the path", "src/util/reach.ts"),
        (
            "ValidationError: this must be a `number` type, but the final value was: `NaN`",
            "src/locale.ts",
        ),
        # the subject (`${path}`) filled in unquoted
        ("ValidationError: email must be a valid email", "src/locale.ts"),
    ],
)
async def test_the_file_spelling_the_message_ranks_first(
    tmp_path: Path, query: str, first: str
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[0] == first, paths
