"""The users of one declaration of a TS/JS file are the files naming it, not those importing
the names the file re-exports from elsewhere (`export type { DriverDependencies } from
"unstorage"`): such a name stands for the file only when the file as a whole is asked about
(related, changed). QA on unjs/unstorage: `what calls normalizeKey` (a function of
src/drivers/utils/index.ts, which also re-exports two types) marked src/drivers/redis.ts
`uses:normalizeKey` for its `import { type DriverDependencies } from "./utils/index.ts"`,
and pointed it at a comment; redis.ts never names normalizeKey."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.test_symbol_dependents import repo_holding
from tests.query_api.test_ts_member_users import users_of

FILES = {
    "src/types.ts": "export interface DriverDependency {\n  name: string;\n}\n",
    "src/drivers/utils/index.ts": (
        'export type { DriverDependency } from "../../types.ts";\n\n'
        "export function normalizeKey(key: string): string {\n"
        '  return key.replace(/[:/]/g, ":");\n'
        "}\n"
    ),
    # imports the re-exported type only
    "src/drivers/redis.ts": (
        'import { type DriverDependency } from "./utils/index.ts";\n\n'
        'export const DRIVER_DEPENDENCY: DriverDependency = { name: "ioredis" };\n'
    ),
    "src/drivers/deno-kv.ts": (
        'import { normalizeKey } from "./utils/index.ts";\n\n'
        "export function base(key: string): string {\n"
        "  return normalizeKey(key);\n"
        "}\n"
    ),
}


def test_a_name_a_file_re_exports_is_no_use_of_its_declarations(tmp_path: Path) -> None:
    with repo_holding(tmp_path, FILES) as r:
        assert users_of(r, "normalizeKey", "src/drivers/utils/index.ts") == [
            "src/drivers/deno-kv.ts"
        ]


def test_the_file_as_a_whole_is_still_used_through_its_re_exports(tmp_path: Path) -> None:
    with repo_holding(tmp_path, FILES) as r:
        assert {path for path, _ in r.dependents("src/drivers/utils/index.ts")} == {
            "src/drivers/redis.ts",
            "src/drivers/deno-kv.ts",
        }
