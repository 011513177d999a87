"""Dependents and tests resolution over real views fed by the real processors: the lookups'
bounds, language families, TS/JS imports resolved to files, Python re-exports, packages."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.dependents import DependentsResolver
from query_api.symbols.families import MAX_PAIRS
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.symbols import MAX_LOOKUP, SymbolViews
from tests.streams.symbol_records import records


class Repo:
    def __init__(self, store: ViewStore) -> None:
        self.store = store
        self.views = SymbolViews(store)
        self.resolver = DependentsResolver(self.views, self.text_of)

    def text_of(self, repo_id: str, path: str) -> str | None:
        content = self.store.get_content(repo_id, path)
        return content.body if content is not None else None

    def add(self, files: dict[str, str]) -> None:
        self.store.apply([r for path, body in files.items() for r in records(path, body)], {})

    def dependents(self, path: str) -> list[tuple[str, str]]:
        declared = self.views.symbols_of_file("r", path)
        found = self.resolver.dependents("r", declared, exclude={path})
        return [(d.path, d.symbol) for d in found]

    def tests(self, path: str) -> list[tuple[str, str]]:
        declared = self.views.symbols_of_file("r", path)
        found = self.resolver.tests("r", declared, [], exclude={path})
        return [(d.path, d.symbol) for d in found]


@contextlib.contextmanager
def repo_holding(tmp_path: Path, files: dict[str, str]) -> Iterator[Repo]:
    """A Repo over a fresh views store in `tmp_path` that holds `files` (path -> body)."""
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = Repo(store)
        repo.add(files)
        yield repo


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, {}) as r:
        yield r


def test_a_member_name_every_file_calls_cannot_crowd_out_real_dependents(repo: Repo) -> None:
    callers = "".join(f"def f{i}(box):\n    box.add({i})\n" for i in range(MAX_LOOKUP + 100))
    repo.add(
        {
            "pkg/lib.py": (
                "class Box:\n    def add(self, x):\n        pass\n\ndef zeta():\n    return 1\n"
            ),
            "pkg/many.py": callers,
            "pkg/user.py": "from pkg.lib import zeta\n\ndef use():\n    return zeta()\n",
        }
    )
    assert repo.dependents("pkg/lib.py") == [("pkg/user.py", "pkg.user.use")]


def test_a_qualified_reference_stays_in_its_language_family(repo: Repo) -> None:
    repo.add(
        {
            "src/orders.ts": "export class OrderService { place(): void {} }\n",
            "com/shop/orders/OrderService.java": (
                "package com.shop.orders;\npublic class OrderService { public void place() {} }\n"
            ),
            "com/shop/web/Checkout.java": (
                "package com.shop.web;\nimport com.shop.orders.OrderService;\n"
                "public class Checkout { OrderService s = new OrderService(); }\n"
            ),
            "app/Main.kt": (
                "package app\nimport com.shop.orders.OrderService\nfun main() { OrderService() }\n"
            ),
        }
    )
    assert repo.dependents("com/shop/orders/OrderService.java") == [
        ("app/Main.kt", "app.main"),  # Kotlin calls Java: one family
        ("com/shop/web/Checkout.java", "com.shop.web.Checkout.s"),
    ]
    assert repo.dependents("src/orders.ts") == []


def test_typescript_imports_resolve_to_the_imported_file(repo: Repo) -> None:
    repo.add(
        {
            "src/orders.ts": "export class OrderService { place(): void {} }\n",
            "src/legacy/orders.ts": "export class OrderService { old(): void {} }\n",
            "src/util/index.ts": "export function helper(): number { return 1; }\n",
            "src/checkout.ts": (
                "import { OrderService as Svc } from './orders';\n"
                "import * as util from './util';\n"
                "export function checkout() { util.helper(); return new Svc(); }\n"
            ),
            "src/legacy/use.js": (
                "import { OrderService } from './orders.js';\n"
                "export const make = () => new OrderService();\n"
            ),
        }
    )
    assert repo.dependents("src/orders.ts") == [("src/checkout.ts", "checkout")]
    assert repo.dependents("src/legacy/orders.ts") == [("src/legacy/use.js", "make")]
    assert repo.dependents("src/util/index.ts") == [("src/checkout.ts", "checkout")]


def test_a_bare_name_means_the_declaration_of_its_own_package(repo: Repo) -> None:
    repo.add(
        {
            "com/shop/orders/OrderService.java": (
                "package com.shop.orders;\npublic class OrderService { public void place() {} }\n"
            ),
            "com/shop/legacy/OrderService.java": (
                "package com.shop.legacy;\npublic class OrderService {}\n"
            ),
            "com/shop/orders/OrderServiceTest.java": (
                "package com.shop.orders;\n"
                "public class OrderServiceTest { void t() { new OrderService().place(); } }\n"
            ),
            "src/orders.ts": "export class OrderService {}\n",
        }
    )
    assert repo.dependents("com/shop/orders/OrderService.java") == [
        ("com/shop/orders/OrderServiceTest.java", "com.shop.orders.OrderServiceTest.t")
    ]
    assert repo.dependents("com/shop/legacy/OrderService.java") == []
    # the {Name}Test convention does not cross languages
    assert repo.tests("src/orders.ts") == []
    assert ("com/shop/orders/OrderServiceTest.java", "com.shop.orders.OrderServiceTest") in (
        repo.tests("com/shop/orders/OrderService.java")
    )


def test_a_name_imported_from_a_barrel_resolves_where_its_re_exports_lead(repo: Repo) -> None:
    repo.add(
        {
            "src/components/Button.tsx": (
                "export function Button(): JSX.Element { return <button />; }\n"
            ),
            "src/components/Card.tsx": "export const Card = () => <div />;\n",
            "src/components/index.ts": (
                "export * from './Button';\nexport { Card } from './Card';\n"
            ),
            "src/index.ts": "export * from './components';\n",
            "src/app/page.tsx": (
                "import { Button } from '../components';\n"
                "export function Page() { return <main><Button /></main>; }\n"
            ),
            "src/app/shell.tsx": (
                "import { Card } from '..';\nexport const Shell = () => <Card />;\n"
            ),
            "src/app/legacy.jsx": (
                "import Button from '../components/Button';\nexport const Old = () => <Button />;\n"
            ),
        }
    )
    assert repo.dependents("src/components/Button.tsx") == [
        ("src/app/legacy.jsx", "Old"),  # a default import, declared under its name
        ("src/app/page.tsx", "Page"),  # through src/components/index.ts
    ]
    # two barrels deep: src/index.ts -> src/components/index.ts -> Card.tsx; the barrel that
    # names Card in its re-export uses it (a file-level reference, as the compiler counts it)
    assert repo.dependents("src/components/Card.tsx") == [
        ("src/app/shell.tsx", "Shell"),
        ("src/components/index.ts", "<file>"),
    ]


def test_a_re_export_chain_stops_at_the_module_that_declares_the_name(repo: Repo) -> None:
    repo.add(
        {
            "src/legacy/orders.ts": "export class OrderService { old(): void {} }\n",
            "src/orders.ts": (
                "import { OrderService as Legacy } from './legacy/orders';\n"
                "export class OrderService { wrapped = new Legacy(); }\n"
            ),
            "src/barrel.ts": "import { OrderService } from './orders';\nexport { OrderService };\n",
            "src/use.ts": (
                "import { OrderService } from './barrel';\n"
                "export const make = () => new OrderService();\n"
            ),
            "src/elsewhere.ts": (
                "import { OrderService } from 'some-package';\n"
                "export const other = () => new OrderService();\n"
            ),
        }
    )
    # a package's name is matched by name (a workspace package may live in this repository)
    # the barrel imports the class to re-export it: it depends on it too
    assert repo.dependents("src/orders.ts") == [
        ("src/barrel.ts", "<file>"),
        ("src/elsewhere.ts", "other"),
        ("src/use.ts", "make"),
    ]
    # src/orders.ts declares the name: the chain ends there, not in what it imports
    assert repo.dependents("src/legacy/orders.ts") == [
        ("src/elsewhere.ts", "other"),
        ("src/orders.ts", "OrderService.wrapped"),
    ]


def test_a_path_alias_names_the_file_its_tsconfig_maps_it_to(repo: Repo) -> None:
    repo.add(
        {
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
            "src/components/Button.tsx": "export function Button() { return <button />; }\n",
            "src/components/index.ts": "export * from './Button';\n",
            "legacy/Button.tsx": "export function Button() { return <a />; }\n",
            "src/app/page.tsx": (
                "import { Button } from '@/components/Button';\n"
                "export const Page = () => <Button />;\n"
            ),
            "src/app/menu.tsx": (
                "import { Button } from '@/components';\nexport const Menu = () => <Button />;\n"
            ),
            "src/app/kit.tsx": (
                "import { Button } from '@acme/kit';\nexport const Kit = () => <Button />;\n"
            ),
            # a nested project's own config: `@/` means something else there
            "admin/tsconfig.json": (
                '{"extends": "../tsconfig.json", "compilerOptions": {"paths": {"@/*": ["./*"]}}}'
            ),
            "admin/components/Button.tsx": "export function Button() { return <b />; }\n",
            "admin/page.tsx": (
                "import { Button } from '@/components/Button';\n"
                "export const Admin = () => <Button />;\n"
            ),
        }
    )
    assert repo.dependents("src/components/Button.tsx") == [
        ("src/app/kit.tsx", "Kit"),  # a package's `Button`: matched by name
        ("src/app/menu.tsx", "Menu"),  # the alias, then the barrel's re-export
        ("src/app/page.tsx", "Page"),
    ]
    assert repo.dependents("legacy/Button.tsx") == [("src/app/kit.tsx", "Kit")]
    # what a file imports reads as repository modules, an alias mapped, a package as written
    assert repo.resolver.imports("r", "src/app/menu.tsx") == ["src/components"]
    assert repo.resolver.imports("r", "src/app/kit.tsx") == ["@acme/kit"]
    # admin's config maps `@/*` to its own directory
    assert repo.dependents("admin/components/Button.tsx") == [
        ("admin/page.tsx", "Admin"),
        ("src/app/kit.tsx", "Kit"),
    ]


def test_a_default_import_means_the_imported_files_declaration_of_that_name(repo: Repo) -> None:
    repo.add(
        {
            "src/ui/Button.tsx": "export default function Button() { return <button />; }\n",
            "src/legacy/Button.tsx": "export default function Button() { return <a />; }\n",
            "src/app/page.tsx": (
                "import Button from '../ui/Button';\nexport const Page = () => <Button />;\n"
            ),
        }
    )
    assert repo.dependents("src/ui/Button.tsx") == [("src/app/page.tsx", "Page")]
    assert repo.dependents("src/legacy/Button.tsx") == []


def test_module_level_names_are_found_through_their_imports(repo: Repo) -> None:
    """Python module globals and TS top-level consts are declarations; a file that imports one
    depends on it however it uses it (an attribute, an argument, `extends`), and a call through
    it (`notifyManager.batch()`) is not a call of a declared `batch`."""
    repo.add(
        {
            "src/flask/globals.py": "request = LocalProxy(_cv_request)\ng = LocalProxy(_cv_app)\n",
            "src/flask/helpers.py": (
                "from .globals import request\n\n"
                "def get_flashed_messages():\n    return request.args\n"
            ),
            "src/flask/blueprints.py": "class Blueprint:\n    pass\n",
            "src/flask/debughelpers.py": (
                "from .blueprints import Blueprint\n\n"
                "def explain(srcobj):\n    return isinstance(srcobj, Blueprint)\n"
            ),
            "src/notifyManager.ts": (
                "export const notifyManager = createNotifyManager();\n"
                "function createNotifyManager() { return { batch() {} }; }\n"
            ),
            "src/subscribable.ts": "export class Subscribable<T> { listeners = new Set<T>(); }\n",
            "src/focusManager.ts": (
                "import { Subscribable } from './subscribable';\n"
                "import { notifyManager } from './notifyManager';\n"
                "export class FocusManager extends Subscribable<() => void> {\n"
                "  onFocus(): void { notifyManager.batch(() => {}); }\n"
                "}\n"
            ),
        }
    )
    assert repo.dependents("src/flask/globals.py") == [("src/flask/helpers.py", "<file>")]
    # `isinstance(srcobj, Blueprint)` reads the imported name as a value: explain's reference
    assert repo.dependents("src/flask/blueprints.py") == [
        ("src/flask/debughelpers.py", "src.flask.debughelpers.explain")
    ]
    assert repo.dependents("src/subscribable.ts") == [("src/focusManager.ts", "FocusManager")]
    assert repo.dependents("src/notifyManager.ts") == [
        ("src/focusManager.ts", "FocusManager.onFocus")
    ]


def test_a_ts_module_names_other_files_through_its_imports_only(repo: Repo) -> None:
    repo.add(
        {
            "src/queryObserver.ts": "export function isStale(q: unknown): boolean { return !q; }\n",
            # a module (it imports): `query.isStale()` is a method of its own query
            "src/utils.ts": (
                "import { hashKey } from './hash';\n"
                "export function matchQuery(query: Q) { return query.isStale(); }\n"
            ),
            "src/hash.ts": "export function hashKey(k: string) { return k; }\n",
            # a script (no imports) shares the global scope
            "legacy/page.js": "function refresh(q) { return isStale(q); }\n",
            "types/global.d.ts": "interface Window { queryDevtools: unknown }\n",
            "src/devtools.ts": (
                "import { hashKey } from './hash';\n"
                "export function open(w: Window) { return hashKey('x'); }\n"
            ),
        }
    )
    assert repo.dependents("src/queryObserver.ts") == [("legacy/page.js", "refresh")]
    assert repo.dependents("types/global.d.ts") == [("src/devtools.ts", "open")]


def test_a_bundlers_output_is_no_script_sharing_the_modules_names(repo: Repo) -> None:
    # axios commits its UMD builds: dist/axios.js and dist/axios.min.js import nothing, and
    # their inlined copies of lib/'s functions (or minified `s`, `u`) made them dependents
    # of lib/core/AxiosHeaders.js and of each other; a script by hand still shares them
    repo.add(
        {
            "lib/headers.js": (
                "import utils from './utils.js';\n"
                "export function normalizeHeader(h) { return utils.trim(h); }\n"
                "export function s(x) { return x; }\n"
            ),
            "lib/utils.js": "export default { trim: (x) => x };\n",
            "dist/axios.js": (
                "(function (global, factory) { global.axios = factory(); })(this, function () {\n"
                "  function other(x) { return normalizeHeader(x); }\n  return other;\n});\n"
            ),
            "dist/axios.min.js": "!function(e){function t(r){return s(r)}e.axios=t}(this);\n",
            "legacy/page.js": "function refresh(h) { return normalizeHeader(h); }\n",
        }
    )
    assert repo.dependents("lib/headers.js") == [("legacy/page.js", "refresh")]


def test_a_module_that_exports_and_imports_nothing_is_no_script(repo: Repo) -> None:
    # zod's v4/core/standard-schema.ts and v4/core/doc.ts import nothing but export: their
    # type parameter `Schema` and `lines.map(...)` are their own, not v3's `Schema` alias
    # or classic's `map()`
    repo.add(
        {
            "src/types.ts": (
                "export function map(x: unknown) { return x; }\n"
                "class ZodType {}\nexport { ZodType as Schema };\n"
            ),
            "src/standard.ts": (
                "export type InferInput<Schema> = Schema;\n"
                "export function join(lines: string[]) { return lines.map(String); }\n"
            ),
            "legacy/page.js": "function refresh(q) { return map(q); }\n",
        }
    )
    assert repo.dependents("src/types.ts") == [("legacy/page.js", "refresh")]


def test_a_package_re_export_is_a_module_level_name_not_a_member(repo: Repo) -> None:
    repo.add(
        {
            "src/shop/__init__.py": (
                "from .core import Context\nfrom .decorators import command\n"
            ),
            "src/shop/core.py": "class Context:\n    command = None\n",
            "src/shop/decorators.py": "def command():\n    return None\n",
            "app/cli.py": "import shop\n\n\n@shop.command()\ndef run():\n    pass\n",
        }
    )
    assert "app/cli.py" in {path for path, _ in repo.dependents("src/shop/decorators.py")}
    assert "app/cli.py" not in {path for path, _ in repo.dependents("src/shop/core.py")}


def test_a_call_through_a_kotlin_class_reaches_its_companion_objects_members(repo: Repo) -> None:
    # `ByteString.of(...)` calls `okio.ByteString.Companion.of`: the unnamed companion object
    # is `Companion` in the fq name, never written at the call
    repo.add(
        {
            "okio/ByteString.kt": (
                "package okio\nclass ByteString {\n  companion object {\n"
                "    fun of(vararg data: Byte): ByteString = ByteString()\n  }\n}\n"
            ),
            "app/Main.kt": (
                "package app\nimport okio.ByteString\nfun main() { ByteString.of(1) }\n"
            ),
        }
    )
    declared = repo.views.symbols_of_file("r", "okio/ByteString.kt")
    of = [s for s in declared if s.name == "of"]
    assert [s.fq_name for s in of] == ["okio.ByteString.Companion.of"]
    found = repo.resolver.dependents("r", of, exclude={"okio/ByteString.kt"})
    assert [(d.path, d.symbol) for d in found] == [("app/Main.kt", "app.main")]


def test_a_namespace_of_a_namespace_reaches_the_declaration(repo: Repo) -> None:
    # zod's `z.coerce.string()`: `z` a namespace import, `coerce` a namespace it exports
    # (`export * as coerce from "./coerce.js"`); the call named no file before
    repo.add(
        {
            "src/coerce.ts": "export function string(): number { return 1; }\n",
            "src/external.ts": 'export * as coerce from "./coerce.js";\n',
            "src/use.ts": (
                'import * as z from "./external.js";\nexport const a = z.coerce.string();\n'
            ),
        }
    )
    assert ("src/use.ts", "a") in repo.dependents("src/coerce.ts")


def test_a_name_re_exported_under_another_name_is_used_by_callers_of_the_alias(repo: Repo) -> None:
    # zod's classic/checks.ts: `export { _lt as lt } from "../core/index.js"`; `z.lt(5)` in
    # a test uses core/api.ts's `_lt`, as TypeScript's find-references counts it
    repo.add(
        {
            "src/core/api.ts": "export function _lt(n: number): number { return n; }\n",
            "src/core/index.ts": 'export * from "./api.js";\n',
            "src/classic/checks.ts": 'export { _lt as lt } from "../core/index.js";\n',
            "src/classic/external.ts": 'export * from "./checks.js";\n',
            "src/use.ts": (
                'import * as z from "./classic/external.js";\nexport const a = z.lt(5);\n'
            ),
            "src/other.ts": "export function lt(n: number): number { return n; }\n",
            "src/not.ts": 'import { lt } from "./other.js";\nexport const b = lt(1);\n',
        }
    )
    assert repo.dependents("src/core/api.ts") == [
        ("src/classic/checks.ts", "<file>"),
        ("src/use.ts", "a"),
    ]


def test_a_default_re_exported_by_name_from_a_barrel_that_also_uses_it(repo: Repo) -> None:
    # got's source/index.ts imports core/options.ts's default export for its own use and
    # re-exports it by name (`export {default as Options} from "./core/options.js"`);
    # test/normalize-arguments.ts's `new Options()` through the barrel was no dependent of
    # options.ts: the re-export's file-level reference was dropped as a duplicate of the
    # local use's, so the barrel's alias was never followed
    repo.add(
        {
            "source/core/options.ts": "export default class Options {}\n",
            "source/create.ts": "export default function create(o: unknown) { return o; }\n",
            "source/index.ts": (
                'import create from "./create.js";\n'
                'import Options from "./core/options.js";\n'
                "const defaults = { options: new Options() };\n"
                "const got = create(defaults);\n"
                "export default got;\n"
                'export { default as Options } from "./core/options.js";\n'
                'export { default as create } from "./create.js";\n'
            ),
            "test/normalize.ts": (
                'import { Options } from "../source/index.js";\n'
                "export function check() { return new Options(); }\n"
            ),
        }
    )
    assert repo.dependents("source/core/options.ts") == [
        ("source/index.ts", "<file>"),
        ("source/index.ts", "defaults"),
        ("test/normalize.ts", "check"),
    ]


def test_a_commonjs_module_required_as_a_whole_is_used_by_the_require(repo: Repo) -> None:
    # koa's lib/context.js: `const proto = module.exports = { inspect () {...} }`, required
    # by lib/application.js as `const context = require('./context')` and used only as
    # `Object.create(context)`: no reference names one of its declarations
    repo.add(
        {
            "lib/context.js": (
                "const proto = module.exports = {\n  inspect () { return this },\n}\n"
            ),
            "lib/application.js": (
                "const context = require('./context')\n"
                "module.exports = class Application {\n"
                "  constructor () { this.context = Object.create(context) }\n}\n"
            ),
            "lib/index.js": "module.exports = {}\n",
            "lib/util/index.js": "exports.noop = 1\n",
            "main.js": "require('./lib')\nconst util = require('./lib/util')\n",
            "other.js": "const context = {}\nmodule.exports = Object.create(context)\n",
            # a barrel names nothing it re-exports; a TypeScript file's imports are matched
            # by the names it uses (as the compiler's find-references counts them)
            "lib/barrel.js": "export * from './context'\n",
            "lib/typed.ts": "import './context'\nexport const x = 1\n",
        }
    )
    assert repo.dependents("lib/context.js") == [("lib/application.js", "<file>")]
    assert repo.dependents("lib/index.js") == [("main.js", "<file>")]
    assert repo.dependents("lib/util/index.js") == [("main.js", "<file>")]


def test_a_folder_required_by_its_path_is_its_package_jsons_main(repo: Repo) -> None:
    # koa's tests: `const Koa = require('../..')`, the repository's package.json naming
    # `"main": "lib/application.js"`; `Koa` is used only as `new Koa()`
    repo.add(
        {
            "package.json": '{"name": "koa", "main": "lib/application.js"}',
            "lib/application.js": "module.exports = class Application {\n  use () {}\n}\n",
            "lib/other.js": "exports.x = 1\n",
            "__tests__/app/use.test.js": (
                "const Koa = require('../..')\nconst app = new Koa()\napp.use(() => {})\n"
            ),
        }
    )
    assert repo.dependents("lib/application.js") == [("__tests__/app/use.test.js", "<file>")]
    assert repo.dependents("lib/other.js") == []
    assert repo.resolver.imports("r", "__tests__/app/use.test.js") == ["lib/application"]


def test_a_require_inside_a_callback_names_nothing_outside_it(repo: Repo) -> None:
    # koa's __tests__/load-with-esm.test.js: `const required = require('../')` in one test's
    # callback, `const required = new Set(...)` and `required.has(k)` in another's; the first
    # binding qualified the second's `has` as the package's, so lib/response.js (`has (field)`)
    # listed the test as a dependent
    repo.add(
        {
            "package.json": '{"name": "koa", "main": "lib/application.js"}',
            "lib/application.js": (
                "const response = require('./response')\n"
                "module.exports = class Application {\n  use () {}\n}\n"
            ),
            "lib/response.js": "module.exports = {\n  has (field) { return true },\n}\n",
            "__tests__/load.test.js": (
                "it('requires', () => {\n  const required = require('../')\n"
                "  required.default\n})\n"
                "it('sets', () => {\n  const required = new Set(['a'])\n"
                "  required.has('a')\n})\n"
            ),
        }
    )
    assert repo.dependents("lib/application.js") == [("__tests__/load.test.js", "<file>")]
    assert repo.dependents("lib/response.js") == [("lib/application.js", "<file>")]


def test_the_answer_is_bounded_by_files_not_by_symbol_file_pairs(repo: Repo) -> None:
    """A file naming hundreds of the declarations (zod's core/api.ts names 165 of
    core/schemas.ts's) cannot use up the bound and cut a dependent found after it."""
    count = MAX_PAIRS + 100
    heavy = "".join(f"from pkg.lib import f{i}\n" for i in range(count))
    heavy += "".join(f"\ndef g{i}():\n    return f{i}()\n" for i in range(count))
    repo.add(
        {
            "pkg/lib.py": "".join(f"def f{i}():\n    return {i}\n" for i in range(count)),
            "pkg/heavy.py": heavy,
            # f99 is the last name looked up (names are read in sorted order)
            "pkg/light.py": "from pkg.lib import f99\n\ndef use():\n    return f99()\n",
        }
    )
    found = repo.dependents("pkg/lib.py")
    assert ("pkg/light.py", "pkg.light.use") in found
    assert len(found) <= MAX_PAIRS
    assert sum(path == "pkg/heavy.py" for path, _symbol in found) == MAX_PAIRS - 1


def test_a_java_static_member_of_a_same_package_class_is_a_dependency(repo: Repo) -> None:
    # gson: JsonArrayTest (package com.google.gson, no import) calls
    # `JsonParser.parseString(...)`; the class name before the dot was no reference, so
    # related(JsonParser.java) missed five test files of its own package
    repo.add(
        {
            "main/com/shop/Parser.java": (
                "package com.shop;\npublic final class Parser {\n"
                "  public static int parse(String s) { return 1; }\n"
                "  public static final int LIMIT = 3;\n}\n"
            ),
            "test/com/shop/ArrayTest.java": (
                "package com.shop;\npublic class ArrayTest {\n"
                '  void t() { int n = Parser.parse("[]"); }\n}\n'
            ),
            "test/com/shop/LimitTest.java": (
                "package com.shop;\npublic class LimitTest { int m = Parser.LIMIT; }\n"
            ),
            "test/com/shop/LocalTest.java": (
                "package com.shop;\npublic class LocalTest {\n"
                "  void t(java.util.List<String> parser) { parser.size(); }\n}\n"
            ),
        }
    )
    assert repo.dependents("main/com/shop/Parser.java") == [
        ("test/com/shop/ArrayTest.java", "com.shop.ArrayTest.t"),
        ("test/com/shop/LimitTest.java", "com.shop.LimitTest.m"),
    ]


def test_a_kotlin_member_of_a_same_package_object_is_a_dependency(repo: Repo) -> None:
    # okio: Segment.kt, FileHandle.kt, Buffer.kt ... (package okio, no import) call
    # `SegmentPool.take()` / `SegmentPool.recycle(...)`; the object's name before the dot was
    # no reference, so related(SegmentPool.kt) listed only the two files that import it
    repo.add(
        {
            "main/com/shop/Parser.kt": (
                "package com.shop\nobject Parser {\n"
                "  fun parse(s: String): Int = 1\n  const val LIMIT = 3\n}\n"
            ),
            "test/com/shop/ArrayTest.kt": (
                'package com.shop\nclass ArrayTest {\n  fun t(): Int = Parser.parse("[]")\n}\n'
            ),
            "test/com/shop/LimitTest.kt": (
                "package com.shop\nclass LimitTest { val m = Parser.LIMIT }\n"
            ),
            "test/com/shop/LocalTest.kt": (
                "package com.shop\nclass LocalTest {\n"
                "  fun t(parser: List<String>) { parser.size }\n}\n"
            ),
        }
    )
    assert repo.dependents("main/com/shop/Parser.kt") == [
        ("test/com/shop/ArrayTest.kt", "com.shop.ArrayTest.t"),
        ("test/com/shop/LimitTest.kt", "com.shop.LimitTest.m"),
    ]


def test_a_csharp_static_member_of_a_class_is_a_dependency(repo: Repo) -> None:
    # commandlineparser: Parser.cs (namespace CommandLine, `using CommandLine.Core;`) and
    # three test files call `Tokenizer.ConfigureTokenizer(...)`; the class name before the dot
    # was no reference, so related(Tokenizer.cs) said 'dependents: none'
    repo.add(
        {
            "src/Core/Tokenizer.cs": (
                "namespace Shop.Core\n{\n  static class Tokenizer\n  {\n"
                "    public static int Tokenize(string s) { return 1; }\n"
                "    public const int Limit = 3;\n  }\n}\n"
            ),
            "src/Core/Builder.cs": (
                "namespace Shop.Core\n{\n  class Builder\n  {\n"
                '    int Build() { return Tokenizer.Tokenize("x"); }\n  }\n}\n'
            ),
            "src/Parser.cs": (
                "using Shop.Core;\nnamespace Shop\n{\n"
                "  class Parser { int m = Tokenizer.Limit; }\n}\n"
            ),
            "src/Local.cs": (
                "using System.Collections.Generic;\nnamespace Shop.Core\n{\n  class Local\n  {\n"
                "    void T(List<string> tokenizer) { tokenizer.Clear(); }\n  }\n}\n"
            ),
        }
    )
    assert repo.dependents("src/Core/Tokenizer.cs") == [
        ("src/Core/Builder.cs", "Shop.Core.Builder.Build"),
        ("src/Parser.cs", "Shop.Parser.m"),
    ]


def test_a_module_loaded_by_a_dynamic_import_it_does_not_bind_is_used_by_the_import(
    repo: Repo,
) -> None:
    # nitro's src/cli/index.ts: `build: () => import("./commands/build.ts").then((r) =>
    # r.default)`; elysia's tests: `new Elysia().use(import("../modules"))`. The loaded
    # module's default export is what the caller takes; no name of it is written.
    repo.add(
        {
            "src/commands/build.ts": "export default defineCommand({ run() {} })\n",
            "src/commands/list.ts": "export const list = () => 1\nexport default list\n",
            "src/cli.ts": (
                "export const main = defineCommand({\n"
                "  subCommands: {\n"
                '    build: () => import("./commands/build.ts").then((r) => r.default),\n'
                "  },\n})\n"
            ),
            "test/modules.test.ts": (
                "const lazy = import('../src/commands/list')\n"
                "it('lazy', () => new App().use(lazy))\n"
            ),
            # bound after an await: its references name what it uses
            "src/run.ts": (
                "export async function run() {\n"
                '  const { list } = await import("./commands/list")\n'
                "  return list()\n}\n"
            ),
        }
    )
    assert repo.dependents("src/commands/build.ts") == [("src/cli.ts", "<file>")]
    assert sorted(repo.dependents("src/commands/list.ts")) == [
        ("src/run.ts", "run"),
        ("test/modules.test.ts", "<file>"),
    ]
