"""A barrel imported through its build folder (`../../dist/readonly/index.js`, the build not
committed) has that importer as a dependent, as related's `imports` of the importer already
names the barrel's source (js_specifiers.built_source). QA on kysely-org/kysely: related of
test/typings/index.d.ts (`export * from '../../dist/readonly/index.js'`) listed
src/readonly/index as an import, while related of src/readonly/index.ts said no dependents."""

from __future__ import annotations

from pathlib import Path

from query_api.symbols.js_specifiers import builds_of
from tests.query_api.test_symbol_dependents import repo_holding

BUILT_REPO = {
    "src/readonly/readonly-kysely.ts": "export interface ReadonlyKysely { name: string }\n",
    "src/readonly/index.ts": "export * from './readonly-kysely.js'\n",
    "src/index.ts": "export * from './readonly/index.js'\n",
    "test/typings/index.d.ts": (
        "export * from '../../dist/index.js'\nexport * from '../../dist/readonly/index.js'\n"
    ),
    # a committed build folder is a module of its own: no import of it names the source
    "lib/util.ts": "export const u = 1\n",
    "src/util.ts": "export * from './readonly/index.js'\n",
    "test/lib.test.ts": "export * from '../lib/util.js'\n",
}


def test_a_barrel_imported_through_its_build_folder_has_that_importer(tmp_path: Path) -> None:
    with repo_holding(tmp_path, BUILT_REPO) as repo:
        assert repo.dependents("src/readonly/index.ts") == [
            ("src/index.ts", "<file>"),
            ("src/util.ts", "<file>"),
            ("test/typings/index.d.ts", "<file>"),
        ]
        assert repo.dependents("src/index.ts") == [("test/typings/index.d.ts", "<file>")]
        assert repo.dependents("src/util.ts") == []  # lib/util.ts is indexed: its own module


def test_a_module_is_built_into_each_build_folder_in_place_of_its_src_folder() -> None:
    assert builds_of("pkg/src/client") == ["pkg/dist/client", "pkg/lib/client", "pkg/build/client"]
    assert builds_of("lib/context") == []
    assert builds_of("src") == []  # a module named src, no folder
