"""`who imports @scope/cookie`, a package of the repository's own workspace named as its
importers write it, places the files importing it. QA on tinyhttp/tinyhttp: `who imports
@tinyhttp/cookie` placed none (no file's path is `@tinyhttp/cookie`) and ranked
packages/app/src/extend.ts second, which imports six other @tinyhttp packages; `what depends
on @tinyhttp/send` put packages/send/src/send.ts second."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def _manifest(name: str) -> str:
    return f'{{\n  "name": "{name}",\n  "type": "module",\n  "exports": "./dist/index.js"\n}}\n'


FILES = {
    "package.json": '{\n  "name": "root",\n  "private": true\n}\n',
    "pnpm-workspace.yaml": 'packages:\n  - "packages/*"\n',
    "packages/cookie/package.json": _manifest("@scope/cookie"),
    "packages/cookie/src/index.ts": (
        "export function parse(header: string): Record<string, string> {\n  return {}\n}\n\n"
        "export function serialize(name: string, value: string): string {\n"
        "  return `${name}=${value}`\n}\n"
    ),
    "packages/send/package.json": _manifest("@scope/send"),
    "packages/send/src/index.ts": "export const send = (body: string): string => body\n",
    "packages/res/package.json": _manifest("@scope/res"),
    "packages/res/src/cookie.ts": (
        "import * as cookie from '@scope/cookie'\n\n"
        "export const setCookie = (name: string, value: string): string =>\n"
        "  cookie.serialize(name, value)\n"
    ),
    "packages/app/package.json": _manifest("@scope/app"),
    "packages/app/src/response.ts": (
        "import type { serialize } from '@scope/cookie'\n\n"
        "export interface Response {\n  cookie: typeof serialize\n}\n"
    ),
    "packages/app/src/extend.ts": (
        "import { send } from '@scope/send'\n"
        "import { setCookie } from '@scope/res'\n\n"
        "// extends the response with cookie and send helpers\n"
        "export const extend = (res: object) => ({ res, send, setCookie, cookie: setCookie })\n"
    ),
}


async def test_the_importers_of_a_workspace_package_named_as_imported_are_its_users(
    tmp_path: Path,
) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="who imports @scope/cookie")
        )
    paths = [h.entry.path for h in answer.hits]
    users = {"packages/res/src/cookie.ts", "packages/app/src/response.ts"}
    assert set(paths[:2]) == users, paths
    for hit in answer.hits[:2]:
        assert "uses:@scope/cookie" in hit.reasons, hit  # the specifier, not `cookie`
        assert hit.snippet is not None and "@scope/cookie" in hit.snippet, hit
