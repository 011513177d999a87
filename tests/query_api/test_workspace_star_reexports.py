"""A name a workspace package hands on with `export * from '@scope/url'` is used by the files
importing it from that package: the re-export chain follows a specifier naming a package of
the repository as it follows a relative one. QA on tinyhttp/tinyhttp: `related
packages/url/src/index.ts` listed no source file depending on it, and `what calls
getURLParams` placed no packages/app/src/app.ts, where `getPathname` and `getURLParams` reach
app.ts through packages/req/src/index.ts's `export * from '@tinyhttp/url'`."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.test_symbol_dependents import repo_holding
from tests.query_api.test_ts_member_users import users_of


def _manifest(name: str) -> str:
    return f'{{\n  "name": "{name}",\n  "type": "module",\n  "exports": "./dist/index.js"\n}}\n'


FILES = {
    "package.json": '{\n  "name": "root",\n  "private": true\n}\n',
    "pnpm-workspace.yaml": 'packages:\n  - "packages/*"\n',
    "packages/url/package.json": _manifest("@scope/url"),
    "packages/url/src/index.ts": (
        "export const getPathname = (u: string): string => u.split('?')[0]\n\n"
        "export const getQueryIndex = (u: string): number => u.indexOf('?')\n"
    ),
    "packages/req/package.json": _manifest("@scope/req"),
    "packages/req/src/index.ts": (
        "export * from '@scope/url'\n\n"
        "export const getHeader = (h: Record<string, string>, k: string): string => h[k]\n"
    ),
    "packages/app/package.json": _manifest("@scope/app"),
    "packages/app/src/app.ts": (
        "import { getPathname } from '@scope/req'\n\n"
        "export const handle = (url: string): string => getPathname(url)\n"
    ),
    "packages/app/src/request.ts": (
        "import { getHeader } from '@scope/req'\n\n"
        "export const host = (h: Record<string, string>): string => getHeader(h, 'host')\n"
    ),
}


def test_a_name_a_workspace_package_re_exports_with_a_star_is_used_through_it(
    tmp_path: Path,
) -> None:
    with repo_holding(tmp_path, FILES) as r:
        assert users_of(r, "getPathname", "packages/url/src/index.ts") == [
            "packages/app/src/app.ts"
        ]
        dependents = {path for path, _ in r.dependents("packages/url/src/index.ts")}
        assert "packages/app/src/app.ts" in dependents, dependents
        assert "packages/app/src/request.ts" not in dependents, dependents
