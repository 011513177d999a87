"""The note of related for a file no test uses names a user whose related lists tests
(query_api/symbols/related.py, untested_note). QA on unjs/ofetch: related of src/types.ts
named src/error.ts, which no test uses either; its note named src/fetch.ts, whose note named
src/index.ts, whose tests (test/index.test.ts) exercise all of them. src/index.ts uses
types.ts itself: one call, not three."""

from __future__ import annotations

from pathlib import Path

from query_api.symbols.related import related_of
from tests.query_api.test_symbol_dependents import repo_holding

# types.ts and its two users: error.ts uses it most, so it ranks first among them
USERS = {
    "src/types.ts": "export interface Options { a: number }\n",
    "src/error.ts": (
        "import type { Options } from './types';\n"
        "export function e1(o: Options) { return o }\n"
        "export function e2(o: Options) { return o }\n"
    ),
    "src/index.ts": (
        "import type { Options } from './types';\nexport function run(o: Options) { return o }\n"
    ),
}
NOTE = "no test uses it or is named for it; the tests of a file using it may exercise it: "


def test_the_note_names_a_user_whose_related_lists_tests(tmp_path: Path) -> None:
    files = {
        **USERS,
        "test/index.test.ts": (
            "import { run } from '../src/index';\nit('runs', () => run({ a: 1 }));\n"
        ),
    }
    with repo_holding(tmp_path, files) as repo:
        types = related_of(repo.resolver, repo.views, "r", "src/types.ts", 0)
        assert types.dependents[0].path == "src/error.ts"
        assert types.tests == []
        assert types.note == NOTE + "related of src/index.ts"
        index = related_of(repo.resolver, repo.views, "r", "src/index.ts", 0)
        assert index.tests and index.note is None


def test_with_no_tested_user_the_note_names_the_first(tmp_path: Path) -> None:
    with repo_holding(tmp_path, USERS) as repo:
        types = related_of(repo.resolver, repo.views, "r", "src/types.ts", 0)
        assert types.note == NOTE + "related of src/error.ts"
