"""A bare specifier a Deno config's import map maps to a URL or a registry (`"parsebox":
"https://.../index.ts"`, `"react": "npm:react@19"`) is another package, as one a package.json
declares is (query_api/symbols/js_dependencies.import_map_packages). QA on sinclairzx81/typebox:
`what calls Type.Ref` listed design/syntax/syntax.ts, whose `Runtime.Ref('Type')` is the
parsebox library's, imported through deno.jsonc's map."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.js_dependencies import import_map_packages
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.test_symbol_dependents import Repo

DENO = """{
  // the build's tools
  "imports": {
    "parsebox": "https://raw.githubusercontent.com/x/parsebox/0.11.6/src/index.ts",
    "react": "npm:react@19.1.1",
    "std/": "jsr:@std/",
    "test": "./test/common/index.ts",
  },
}
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        yield Repo(store)


def test_an_import_map_names_the_packages_it_maps_to_urls_and_registries() -> None:
    assert import_map_packages(DENO) == {"parsebox", "react", "std"}
    assert import_map_packages("not json") == frozenset()
    assert import_map_packages('{"imports": []}') == frozenset()


def test_a_name_imported_through_an_import_map_to_a_url_is_not_the_repositorys(
    repo: Repo,
) -> None:
    repo.add(
        {
            "deno.jsonc": DENO,
            "src/runtime.ts": "export namespace Runtime { export function Ref(n: string) {} }\n",
            "src/uses.ts": (
                "import { Runtime } from './runtime.ts';\n"
                "export const a = () => Runtime.Ref('x');\n"
            ),
            "design/syntax.ts": (
                "import { Runtime } from 'parsebox';\nexport const b = () => Runtime.Ref('T');\n"
            ),
            "design/other.ts": (
                "import { Runtime } from 'unmapped';\nexport const c = () => Runtime.Ref('T');\n"
            ),
        }
    )
    # a specifier no map or package.json names is still matched by name
    assert repo.dependents("src/runtime.ts") == [("design/other.ts", "c"), ("src/uses.ts", "a")]
