"""A file that only hands on other modules' names has the files importing it as dependents:
a TS/JS barrel (`export * from`, `export { a } from`, through a relative specifier or a
tsconfig path alias) and a Python package's __init__.py. What the importers use is still
credited to the declaring file as well (spec 3.6). QA pass: elysia's src/adapter/index.ts,
zustand's src/middleware.ts, requests' and flask's __init__.py listed no dependents."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.test_symbol_dependents import repo_holding

BARREL_REPO = {
    "tsconfig.json": '{"compilerOptions": {"paths": {"kit": ["./src/index.ts"], '
    '"kit/*": ["./src/*.ts"]}}}',
    "src/adapter/types.ts": "export interface Adapter { name: string }\n",
    "src/adapter/index.ts": "export type { Adapter } from './types'\n",
    "src/middleware/devtools.ts": "export function devtools(): number { return 1 }\n",
    "src/middleware.ts": "export * from './middleware/devtools'\n",
    "src/index.ts": "export * from './middleware'\n",
    "src/app.ts": (
        "import type { Adapter } from './adapter'\n"
        "export function serve(a: Adapter): string { return a.name }\n"
    ),
    "tests/devtools.test.ts": (
        "import { devtools } from 'kit/middleware'\nexport const x = devtools()\n"
    ),
    # re-exports a name of the barrel by name (elysia's src/index.ts)
    "src/public.ts": "export type { Adapter } from './adapter'\n",
    "tests/root.test.ts": "import { devtools } from 'kit'\nexport const y = devtools()\n",
    # imports the declaring file itself: no dependent of the barrels
    "src/direct.ts": (
        "import { devtools } from './middleware/devtools'\nexport const z = devtools()\n"
    ),
}


def paths(found: list[tuple[str, str]]) -> list[str]:
    return sorted({path for path, _symbol in found})


def test_a_typescript_barrel_s_importers_are_its_dependents(tmp_path: Path) -> None:
    with repo_holding(tmp_path, BARREL_REPO) as repo:
        # `export type { Adapter } from './types'`, imported as './adapter'
        assert repo.dependents("src/adapter/index.ts") == [
            ("src/app.ts", "serve"),
            ("src/public.ts", "<file>"),
        ]
        # `export * from`, imported through the tsconfig alias `kit/*`, and re-exported by
        # another barrel
        assert paths(repo.dependents("src/middleware.ts")) == [
            "src/index.ts",
            "tests/devtools.test.ts",
        ]
        assert paths(repo.dependents("src/index.ts")) == ["tests/root.test.ts"]
        # the declaring files keep the importers of the barrels
        assert "src/app.ts" in paths(repo.dependents("src/adapter/types.ts"))
        # (a barrel's `export * from` names nothing: js_ts.STAR_REEXPORT)
        assert paths(repo.dependents("src/middleware/devtools.ts")) == [
            "src/direct.ts",
            "tests/devtools.test.ts",
            "tests/root.test.ts",
        ]


def test_a_package_init_s_importers_are_its_dependents(tmp_path: Path) -> None:
    files = {
        "src/shop/__init__.py": "from .orders import Order as Order\n",
        "src/shop/orders.py": "class Order:\n    pass\n",
        "src/shop/sub/__init__.py": "",
        "tests/test_shop.py": "import shop\n\ndef test_it():\n    assert shop.Order\n",
        "tests/test_order.py": "from shop import Order\n\ndef test_it():\n    Order()\n",
        "tests/test_orders_module.py": "import shop.orders\n",  # the module's, not the package's
        "tests/test_sub.py": "from shop.sub import thing\n",
    }
    with repo_holding(tmp_path, files) as repo:
        assert paths(repo.dependents("src/shop/__init__.py")) == [
            "tests/test_order.py",
            "tests/test_shop.py",
        ]
        assert paths(repo.dependents("src/shop/sub/__init__.py")) == ["tests/test_sub.py"]
        assert "tests/test_order.py" in paths(repo.dependents("src/shop/orders.py"))
