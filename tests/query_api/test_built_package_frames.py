"""A JavaScript stack trace through the installed build of the repository's own package
(`node_modules/typebox/build/type/types/schema.mjs:42`) names the source module it is built
from (src/type/types/schema.ts). QA on sinclairzx81/typebox: such a trace placed no frame's
file and ranked five other files declaring `FromType` first."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import built_from, built_module
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FROM_TYPE = "export function FromType(type: unknown): unknown {{\n  return {body}\n}}\n"
FILES = {
    "src/type/types/schema.ts": (
        "export function IsKind(value: any, kind: string): boolean {\n"
        "  return value['~kind'] === kind\n"
        "}\n"
    ),
    "src/type/types/object.ts": (
        "import { IsKind } from './schema.ts'\n\n"
        "export function IsObject(value: unknown): boolean {\n"
        "  return IsKind(value, 'Object')\n"
        "}\n"
    ),
    "src/value/clean/from_type.ts": (
        "import { IsObject } from '../../type/types/object.ts'\n\n"
        "export function FromType(type: unknown, value: unknown): unknown {\n"
        "  return IsObject(type) ? value : undefined\n"
        "}\n"
    ),
    **{
        f"src/type/engine/{name}/from_type.ts": FROM_TYPE.format(body=f"type // {name} FromType")
        for name in ("keyof", "indexed", "mapped", "partial", "required")
    },
}
TRACE = (
    "TypeError: Cannot read properties of undefined (reading '~kind')\n"
    "    at IsKind (file:///app/node_modules/typebox/build/type/types/schema.mjs:2:16)\n"
    "    at IsObject (file:///app/node_modules/typebox/build/type/types/object.mjs:4:10)\n"
    "    at FromType (file:///app/node_modules/typebox/build/value/clean/from_type.mjs:4:10)\n"
    "    at Clean (file:///app/src/main.ts:10:3)\n"
)


def test_a_build_module_names_its_source() -> None:
    built = built_module("/app/node_modules/typebox/build/type/types/schema.mjs")
    assert built == "type/types/schema"
    assert built_from(built, "src/type/types/schema.ts")
    assert not built_from(built, "src/schema/types/schema.ts")
    # a module of one name is any folder's: the one called as the package's
    one_name = built_module("/app/node_modules/typebox/dist/index.mjs")
    assert one_name == "typebox/index"
    assert not built_from(one_name, "src/index.ts")
    assert built_from(one_name, "packages/typebox/index.ts")
    assert built_module("/app/src/type/types/schema.ts") is None


async def test_the_frames_files_lead_innermost_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=TRACE))
        paths = [h.entry.path for h in answer.hits]
        assert paths[:3] == [
            "src/type/types/schema.ts",
            "src/type/types/object.ts",
            "src/value/clean/from_type.ts",
        ], paths
        assert (answer.hits[1].startLine, answer.hits[1].endLine) == (4, 4), answer.hits[1]


WORKSPACE = {
    "package.json": '{"name": "mw", "workspaces": ["packages/*"]}\n',
    "packages/core/package.json": '{"name": "@mw/core"}\n',
    "packages/core/index.js": (
        "export const runRequest = async (request, middlewares) => {\n"
        "  for (const fn of middlewares) {\n"
        "    await fn(request);\n"
        "  }\n"
        "};\n"
    ),
    "packages/cors/package.json": '{"name": "@mw/cors"}\n',
    "packages/cors/index.js": (
        "const corsAfter = (request) => {\n"
        "  const origin = request.event.headers.origin;\n"
        "  request.response.headers.origin = origin;\n"
        "};\n"
        "export default () => ({ after: corsAfter });\n"
    ),
    **{
        f"packages/{name}/index.js": (
            f"// {name}: reads request headers, event headers and the response\n"
            "export default () => ({ before: (request) => request.event.headers });\n"
        )
        for name in ("json", "urlencode", "multipart", "security", "negotiation")
    },
}
WORKSPACE_TRACE = (
    "TypeError: Cannot read properties of undefined (reading 'headers')\n"
    "    at corsAfter (file:///var/task/node_modules/@mw/cors/index.js:3:20)\n"
    "    at runRequest (file:///var/task/node_modules/@mw/core/index.js:3:11)\n"
)


async def test_a_workspace_package_s_one_name_module_is_its_folder_s(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, WORKSPACE) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=WORKSPACE_TRACE))
        paths = [h.entry.path for h in answer.hits]
        assert paths[:2] == ["packages/cors/index.js", "packages/core/index.js"], paths
        assert (answer.hits[0].startLine, answer.hits[0].endLine) == (3, 3), answer.hits[0]
