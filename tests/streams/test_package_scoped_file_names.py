"""A file name every package of a monorepo holds (`package.json`, `tsconfig.json`) names the
one of the package a query names as such (`the package.json of the cookie package`, `the
@tinyhttp/app package's tsconfig.json`). QA on tinyhttp/tinyhttp: `where is the package.json
of the cookie package` ranked packages/cookie/package.json fifth, below four source files
holding `cookie`: a bare file name that several files share names none of them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from streams.stores.views.named_files import path_named_files
from streams.stores.views.search import keyword_hits
from tests.streams.symbol_records import views_holding


def _manifest(name: str) -> str:
    return f'{{\n  "name": "{name}",\n  "description": "{name} for Node.js"\n}}\n'


FILES = {
    "package.json": _manifest("root"),
    "tsconfig.json": '{\n  "compilerOptions": {}\n}\n',
    "packages/cookie/package.json": _manifest("@scope/cookie"),
    "packages/cookie/tsconfig.json": '{\n  "extends": "../../tsconfig.json"\n}\n',
    "packages/cookie/src/index.ts": "export function parse(cookie: string) {\n  return cookie\n}\n",
    "packages/app/package.json": _manifest("@scope/app"),
    "packages/app/tsconfig.json": '{\n  "extends": "../../tsconfig.json"\n}\n',
    "packages/res/src/cookie.ts": "import { parse } from '@scope/cookie'\nconst cookie = parse\n",
    "packages/res/package.json": _manifest("@scope/res"),
    "examples/cookie/package.json": _manifest("cookie-example"),
}


def test_the_shared_file_of_the_package_a_query_names_ranks_first(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        for query, want in (
            ("where is the package.json of the cookie package", "packages/cookie/package.json"),
            ("the @scope/app package's tsconfig.json", "packages/app/tsconfig.json"),
        ):
            hits = keyword_hits(store, "r", query, 10)
            assert hits[0].path == want, (query, [h.path for h in hits])


def test_a_shared_file_name_alone_or_with_other_words_names_none(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        for query in (
            "bump the version in package.json",
            "fix the cookie parser in package.json",
            "the package.json of the parser package",
        ):

            def named(conn: sqlite3.Connection, query: str = query) -> list[str]:
                return path_named_files(conn, "r", query)

            assert store.read(named) == [], query
