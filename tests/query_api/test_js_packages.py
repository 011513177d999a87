"""TS/JS imports of the repository's own packages by their names (`zod`, `@acme/lib/utils`):
package.json `exports` and entry fields, self-references and workspace packages, on texts and
over real views fed by the real processors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.symbols.languages.js_ts_packages import (
    module_of,
    parse_manifest,
    split_specifier,
    workspace_patterns,
)
from query_api.symbols import js_modules
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.test_symbol_dependents import Repo


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        yield Repo(store)


def test_a_specifier_splits_into_the_package_and_its_subpath() -> None:
    assert split_specifier("zod") == ("zod", ".")
    assert split_specifier("zod/v4/core") == ("zod", "./v4/core")
    assert split_specifier("@acme/ui/button") == ("@acme/ui", "./button")
    assert split_specifier("@acme") is None
    assert split_specifier("node:fs") is None
    assert split_specifier("./local") is None
    assert module_of("pkg/index.d.cts") == module_of("pkg/index.cjs") == "pkg/index"


def test_exports_subpaths_patterns_and_conditions_in_their_written_order() -> None:
    manifest = parse_manifest(
        """{"name": "zod", "exports": {
            "./package.json": "./package.json",
            ".": {"@zod/source": "./src/index.ts", "types": "./index.d.cts",
                  "import": "./index.js"},
            "./v3": {"types": "./v3/index.d.cts", "default": "./v3/index.js"},
            "./locales/*": {"@zod/source": "./src/locales/*", "default": "./locales/*"},
            "./internal/*": null
        }}""",
        "packages/zod",
    )
    assert manifest is not None and manifest.name == "zod"
    assert manifest.candidates(".") == [
        "packages/zod/src/index.ts",
        "packages/zod/index.d.cts",
        "packages/zod/index.js",
    ]
    assert manifest.candidates("./v3") == [
        "packages/zod/v3/index.d.cts",
        "packages/zod/v3/index.js",
    ]
    assert manifest.candidates("./locales/en.js") == [
        "packages/zod/src/locales/en.js",
        "packages/zod/locales/en.js",
    ]
    assert manifest.candidates("./internal/x") == []  # `null`: not exported
    assert manifest.candidates("./not-exported") == []
    sugar = parse_manifest('{"name": "a", "exports": {"import": "./esm/a.js"}}', "")
    assert sugar is not None and sugar.candidates(".") == ["esm/a.js"]


def test_without_exports_the_entry_fields_then_index_and_subpaths_under_the_folder() -> None:
    manifest = parse_manifest(
        '{"name": "lib", "main": "lib/main.js", "types": "./types.d.ts"}', "l"
    )
    assert manifest is not None
    assert manifest.candidates(".") == ["l/types.d.ts", "l/lib/main.js", "l/index"]
    assert manifest.candidates("./utils/dates") == ["l/utils/dates"]
    assert parse_manifest('{"version": "1.0.0"}', "") is None  # no name: nothing to import
    assert parse_manifest("not json", "") is None


def test_workspaces_come_from_package_json_and_pnpm_workspace_yaml() -> None:
    assert workspace_patterns('{"workspaces": ["packages/*", "apps/web/"]}', None) == [
        "packages/*",
        "apps/web",
    ]
    assert workspace_patterns('{"workspaces": {"packages": ["libs/*"]}}', None) == ["libs/*"]
    pnpm = "packages:\n  - 'packages/*'\n  - '!**/test/**'\nlinkWorkspacePackages: true\n"
    assert workspace_patterns(None, pnpm) == ["packages/*"]
    assert workspace_patterns("{", "packages: [") == []


MONOREPO = {
    "package.json": '{"private": true}',
    "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
    "packages/lib/package.json": """{
        "name": "@acme/lib",
        "exports": {
            ".": {"source": "./src/index.ts", "types": "./dist/index.d.ts"},
            "./strings": {"types": "./dist/strings.d.ts", "source": "./src/strings.ts"}
        }
    }""",
    "packages/lib/src/index.ts": (
        "import * as z from './external';\nexport * from './external';\nexport { z };\n"
    ),
    "packages/lib/src/external.ts": "export * from './numbers';\n",
    "packages/lib/src/numbers.ts": "export function parse(s: string): number { return +s; }\n",
    "packages/lib/src/strings.ts": "export function pad(s: string): string { return s; }\n",
    "packages/lib/src/tests/numbers.test.ts": (
        "import { z } from '@acme/lib';\nexport const checked = () => z.parse('1');\n"
    ),
    "packages/app/package.json": '{"name": "app", "main": "./main.js"}',
    "packages/app/main.ts": (
        "import { parse } from '@acme/lib';\nimport { pad } from '@acme/lib/strings';\n"
        "export const run = () => pad(String(parse('2')));\n"
    ),
    # the same names declared elsewhere: an import of @acme/lib does not mean them
    "packages/legacy/package.json": '{"name": "legacy"}',
    "packages/legacy/parse.ts": "export function parse(s: string): number { return 0; }\n",
    "packages/legacy/pad.ts": "export function pad(s: string): string { return ''; }\n",
}


def test_a_workspace_package_imported_by_name_names_its_files(repo: Repo) -> None:
    repo.add(MONOREPO)
    assert repo.dependents("packages/lib/src/numbers.ts") == [
        ("packages/app/main.ts", "run"),
        ("packages/lib/src/tests/numbers.test.ts", "checked"),  # `z.parse`, a self-reference
    ]
    assert repo.dependents("packages/lib/src/strings.ts") == [("packages/app/main.ts", "run")]
    assert repo.dependents("packages/legacy/parse.ts") == []
    assert repo.dependents("packages/legacy/pad.ts") == []
    # imports read as the repository modules they name
    assert repo.resolver.imports("r", "packages/app/main.ts") == [
        "packages/lib/src/index",
        "packages/lib/src/strings",
    ]


def test_a_package_the_repository_does_not_hold_is_still_matched_by_name(repo: Repo) -> None:
    repo.add(
        {
            **MONOREPO,
            "packages/app/other.ts": (
                "import { pad } from 'left-pad';\nexport const other = () => pad('x');\n"
            ),
        }
    )
    assert ("packages/app/other.ts", "other") in repo.dependents("packages/legacy/pad.ts")


def test_past_the_answers_bounds_a_reference_is_not_taken_for_a_packages_name(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.add(MONOREPO)
    monkeypatch.setattr(js_modules, "MAX_FILES", 0)  # every read is past the bounds
    assert repo.dependents("packages/legacy/pad.ts") == []


def test_a_namespace_export_is_followed_for_its_namespace_not_for_plain_names(
    repo: Repo,
) -> None:
    repo.add(
        {
            "src/schemas.ts": "export function string(): string { return ''; }\n",
            "src/coerce.ts": "export function string(): string { return 'coerced'; }\n",
            "src/external.ts": "export * from './schemas';\nexport * as coerce from './coerce';\n",
            "src/index.ts": (
                "import * as z from './external';\nexport * from './external';\nexport { z };\n"
            ),
            "app/plain.ts": "import { z } from '../src';\nexport const a = () => z.string();\n",
            "app/coerced.ts": (
                "import { coerce } from '../src';\nexport const b = () => coerce.string();\n"
            ),
            "app/direct.ts": "import { string } from '../src';\nexport const c = () => string();\n",
        }
    )
    assert repo.dependents("src/schemas.ts") == [("app/direct.ts", "c"), ("app/plain.ts", "a")]
    assert repo.dependents("src/coerce.ts") == [("app/coerced.ts", "b")]
    # a namespace import is still an import of its module
    assert repo.resolver.imports("r", "src/index.ts") == ["src/external"]


def test_a_named_re_export_hands_on_only_the_names_it_lists(repo: Repo) -> None:
    repo.add(
        {
            "src/schemas.ts": "export function string(): string { return ''; }\n",
            "src/coerce.ts": (
                "export type Coerced = string;\n"
                "export function string(): string { return 'coerced'; }\n"
            ),
            "src/index.ts": (
                "export * from './schemas';\nexport type { Coerced } from './coerce';\n"
            ),
            "app/plain.ts": "import { string } from '../src';\nexport const a = () => string();\n",
            "app/typed.ts": (
                "import type { Coerced } from '../src';\nexport const t = (c: Coerced) => c;\n"
            ),
        }
    )
    assert repo.dependents("src/schemas.ts") == [("app/plain.ts", "a")]
    assert repo.dependents("src/coerce.ts") == [("app/typed.ts", "t"), ("src/index.ts", "<file>")]
    assert repo.resolver.imports("r", "src/index.ts") == ["src/coerce", "src/schemas"]


def test_a_default_export_imported_under_another_name_is_its_files(repo: Repo) -> None:
    repo.add(
        {
            "src/createApp.ts": "export default function createApp() { return {}; }\n",
            "src/other.ts": "export default function other() { return 1; }\n",
            "src/index.ts": ("export { default } from './createApp';\nexport * from './other';\n"),
            "app/main.ts": "import app from '../src/createApp';\nexport const run = () => app();\n",
            "app/via.ts": "import make from '../src';\nexport const go = () => make();\n",
        }
    )
    assert repo.dependents("src/createApp.ts") == [
        ("app/main.ts", "run"),
        ("app/via.ts", "go"),  # the barrel's `export { default } from`
        ("src/index.ts", "<file>"),
    ]
    # `export * from` hands on every export but the default
    assert repo.dependents("src/other.ts") == []


def test_a_barrel_re_exporting_several_defaults_depends_on_each(repo: Repo) -> None:
    repo.add(
        {
            "src/locales/ar.ts": "export default function () { return 'ar'; }\n",
            "src/locales/be.ts": "export default function () { return 'be'; }\n",
            "src/locales/index.ts": (
                "export { default as ar } from './ar';\nexport { default as be } from './be';\n"
            ),
        }
    )
    assert repo.dependents("src/locales/ar.ts") == [("src/locales/index.ts", "<file>")]
    assert repo.dependents("src/locales/be.ts") == [("src/locales/index.ts", "<file>")]


def test_a_name_exported_under_another_name_is_its_declaration(repo: Repo) -> None:
    repo.add(
        {
            "src/core.ts": (
                "function outputOf(x: number): number { return x; }\n"
                "export { outputOf as output };\n"
            ),
            "src/index.ts": "export * from './core';\n",
            "app/direct.ts": (
                "import { output } from '../src/core';\nexport const d = () => output(2);\n"
            ),
            "app/use.ts": "import { output } from '../src';\nexport const u = () => output(1);\n",
        }
    )
    assert repo.dependents("src/core.ts") == [("app/direct.ts", "d"), ("app/use.ts", "u")]
    assert repo.resolver.imports("r", "src/core.ts") == []


SELF_BUILT = {
    # nitro's layout: the package imports itself by name, its exports pointing at the build
    "package.json": """{
        "name": "nitro",
        "imports": {"#nitro/runtime/*": "./dist/runtime/internal/*.mjs"},
        "exports": {
            "./app": "./dist/runtime/app.mjs",
            "./types": {"types": "./dist/types/index.d.mts", "default": "./dist/types/index.mjs"}
        }
    }""",
    "src/runtime/app.ts": "export function useNitroApp(): number { return 1; }\n",
    "src/types/index.ts": "export interface NitroConfig { preset: string }\n",
    "src/presets/bun/runtime/bun.ts": (
        "import { useNitroApp } from 'nitro/app';\n"
        "import type { NitroConfig } from 'nitro/types';\n"
        "import { startScheduleRunner } from '#nitro/runtime/task';\n"
        "export const serve = (c: NitroConfig) => useNitroApp() + startScheduleRunner();\n"
    ),
    "src/runtime/internal/task.ts": "export function startScheduleRunner(): number { return 0; }\n",
    # the same names declared elsewhere: imports of nitro/app and #nitro/... do not mean them
    "src/dev/app.ts": "export function useNitroApp(): number { return 2; }\n",
    "src/dev/task.ts": "export function startScheduleRunner(): number { return 3; }\n",
}


def test_a_self_import_through_exports_into_the_build_folder_names_its_source(
    repo: Repo,
) -> None:
    """`nitro/app` -> `./dist/runtime/app.mjs`, built from src/runtime/app.ts, and the
    subpath import `#nitro/runtime/task` -> `./dist/runtime/internal/task.mjs`, built from
    src/runtime/internal/task.ts. Before, neither specifier named a module: related listed
    them as written and the references were matched by name alone, so src/dev/app.ts and
    src/dev/task.ts got bun.ts as a dependent too."""
    repo.add(SELF_BUILT)
    bun = "src/presets/bun/runtime/bun.ts"
    assert repo.resolver.imports("r", bun) == [
        "src/runtime/app",
        "src/runtime/internal/task",
        "src/types/index",
    ]
    assert repo.dependents("src/runtime/app.ts") == [(bun, "serve")]
    assert repo.dependents("src/types/index.ts") == [(bun, "serve")]
    assert repo.dependents("src/runtime/internal/task.ts") == [(bun, "serve")]
    assert repo.dependents("src/dev/app.ts") == []
    assert repo.dependents("src/dev/task.ts") == []


def test_a_barrel_imported_by_its_package_name_has_its_importers_as_dependents(
    repo: Repo,
) -> None:
    """nitro's src/types/index.ts re-exports its types (`export * from "./config.ts"`) and
    124 files import them as `nitro/types` (`"./types": "./dist/types/index.mjs"`); its
    runtime files import src/runtime/internal/*.ts as `#nitro/runtime/*`. Before, the
    importers were found by relative specifiers and path aliases only: the barrel had no
    dependents at all."""
    repo.add(
        {
            **SELF_BUILT,
            "src/types/index.ts": "export * from './config.ts';\n",
            "src/types/config.ts": "export interface NitroConfig { preset: string }\n",
            "src/runtime/internal/index.ts": "export * from './task.ts';\n",
            "src/presets/node/runtime/node.ts": (
                "import '#nitro/runtime/index';\nexport const node = 1;\n"
            ),
        }
    )
    bun = "src/presets/bun/runtime/bun.ts"
    assert repo.dependents("src/types/index.ts") == [(bun, "<file>")]
    assert repo.dependents("src/types/config.ts") == [(bun, "serve")]
    assert repo.dependents("src/runtime/internal/index.ts") == [
        ("src/presets/node/runtime/node.ts", "<file>")
    ]


def test_a_name_imported_from_an_asset_is_no_declaration_of_the_repository(repo: Repo) -> None:
    """nitro's test/fixture/server/routes/wasm/static-import.ts imports `{ sum }` from
    `./sum.wasm` (a binary, not indexed): the reference `.../sum.wasm.sum` named no module,
    was taken for a package's name and matched by name, so examples/import-alias's
    server/utils/math.ts, which declares a `sum`, had it as a dependent and a test."""
    repo.add(
        {
            "src/math.ts": (
                "export function sum(a: number, b: number): number { return a + b; }\n"
                "export const version = '1';\n"
            ),
            "src/wasm/user.ts": (
                "import init, { sum } from './sum.wasm';\n"
                "import { version } from '../../package.json';\n"
                "export const r = () => sum(2, 3) + version;\n"
            ),
            "src/caller.ts": "import { sum } from './math';\nexport const c = () => sum(1, 2);\n",
        }
    )
    assert repo.dependents("src/math.ts") == [("src/caller.ts", "c")]


LIB_BUILT = {
    # feathers' lerna layout: each package builds src/ into lib/ (not committed), its entry
    # fields name the folder (`"main": "lib/"`), and a root shim re-exports a built subpath
    "package.json": '{"private": true, "workspaces": ["packages/*"]}',
    "packages/feathers/package.json": (
        '{"name": "@feathersjs/feathers", "main": "lib/", "types": "lib/"}'
    ),
    "packages/feathers/src/index.ts": "export * from './service';\n",
    "packages/feathers/src/service.ts": "export interface Service { find(): number }\n",
    "packages/transport-commons/package.json": (
        '{"name": "@feathersjs/transport-commons", "main": "lib/", "types": "lib/"}'
    ),
    "packages/transport-commons/client.d.ts": "export * from './lib/client'\n",
    "packages/transport-commons/src/client.ts": "export class Service { find() { return 1 } }\n",
    "packages/auth/src/strategy.ts": (
        "import { Service } from '@feathersjs/feathers';\n"
        "export const entityService = (s: Service) => s.find();\n"
    ),
    "packages/socketio-client/src/index.ts": (
        "import { Service } from '@feathersjs/transport-commons/client';\n"
        "export const connect = () => new Service();\n"
    ),
}


def test_a_workspace_package_built_into_lib_names_its_source(repo: Repo) -> None:
    """feathers' packages say `"main": "lib/"` and the root shim client.d.ts re-exports
    `./lib/client`, all built from src/ by tsc's `outDir: lib`. Only a `dist` build was
    mapped to its source, so `@feathersjs/feathers` and `@feathersjs/transport-commons/client`
    named no module and every reference through them was matched by name: related of
    transport-commons' src/client.ts listed authentication's strategy.ts (whose `Service` is
    @feathersjs/feathers') and not socketio-client, which imports it."""
    repo.add(LIB_BUILT)
    client = "packages/socketio-client/src/index.ts"
    strategy = "packages/auth/src/strategy.ts"
    assert repo.dependents("packages/transport-commons/src/client.ts") == [(client, "connect")]
    assert repo.dependents("packages/feathers/src/service.ts") == [(strategy, "entityService")]
    assert repo.resolver.imports("r", strategy) == ["packages/feathers/src/index"]
    assert repo.resolver.imports("r", "packages/transport-commons/client.d.ts") == [
        "packages/transport-commons/src/client"
    ]


def test_a_name_imported_from_a_declared_dependency_is_not_the_repositorys(repo: Repo) -> None:
    """feathers' packages/express/src/index.ts imports `Router` from `express`, a dependency
    its package.json declares (an npm package, no repository file): the name was matched by
    name alone, so related of transport-commons' src/routing/router.ts, which declares a
    class Router, listed express/src/index.ts and express/src/rest.ts as its dependents. A
    package no package.json above the file declares is still matched by name (the test
    above), and so is a workspace package's name, declared or not."""
    repo.add(
        {
            "package.json": '{"private": true, "workspaces": ["packages/*"]}',
            "packages/tc/package.json": '{"name": "@acme/tc"}',
            "packages/tc/src/router.ts": "export class Router { remove() {} }\n",
            "packages/express/package.json": (
                '{"name": "@acme/express", "dependencies": {"express": "^4", "@acme/tc": "*"},'
                ' "devDependencies": {"socket.io": "^4"}}'
            ),
            "packages/express/src/index.ts": (
                "import { Router } from 'express';\nimport { Server } from 'socket.io';\n"
                "export const r = () => Router();\nexport const s = (x: Server) => x;\n"
            ),
            "packages/tc/src/server.ts": "export class Server {}\n",
            "packages/other/src/uses.ts": (
                "import { Router } from 'undeclared-pkg';\nexport const u = () => new Router();\n"
            ),
        }
    )
    assert repo.dependents("packages/tc/src/router.ts") == [("packages/other/src/uses.ts", "u")]
    assert repo.dependents("packages/tc/src/server.ts") == []


def test_a_barrel_of_a_workspace_package_without_exports_has_its_importers(repo: Repo) -> None:
    """feathers' packages have no `exports`: `@feathersjs/transport-commons/client` names the
    root shim client.d.ts (`export * from './lib/client'`) by its path under the package, and
    `@feathersjs/feathers` names src/index.ts (`export * from './service'`) through `"main":
    "lib/"`. The reverse lookup knew only packages with `exports`, so related of either
    barrel said "dependents: none" though socketio-client and authentication import them."""
    repo.add(LIB_BUILT)
    assert repo.dependents("packages/transport-commons/client.d.ts") == [
        ("packages/socketio-client/src/index.ts", "<file>")
    ]
    assert repo.dependents("packages/feathers/src/index.ts") == [
        ("packages/auth/src/strategy.ts", "<file>")
    ]


def test_a_name_imported_from_a_runtime_module_is_not_the_repositorys(repo: Repo) -> None:
    """unjs/unstorage's src/drivers/utils/node-fs.ts declares readFile, readdir and writeFile,
    and scripts/gen-drivers.ts and test/driver-dependencies.test.ts import those names from
    `node:fs/promises`: no package.json declares a runtime's built-in module, so the names were
    matched by name and related of node-fs.ts listed both files as its dependents. A
    specifier with a scheme (`node:`, `bun:`, `cloudflare:`) is no npm package name and never
    the repository's own."""
    repo.add(
        {
            "package.json": '{"name": "unstorage", "devDependencies": {"vitest": "^3"}}',
            "src/node-fs.ts": (
                "export function readFile(p: string) { return p; }\n"
                "export function readdir(p: string) { return [p]; }\n"
            ),
            "src/fs.ts": (
                "import { readFile } from './node-fs.ts';\n"
                "export function getItem(key: string) { return readFile(key); }\n"
            ),
            "scripts/gen.ts": (
                "import { readFile, readdir } from 'node:fs/promises';\n"
                "export async function gen() { return readFile(await readdir('.')); }\n"
            ),
            "src/worker.ts": (
                "import { readFile } from 'node:fs';\n"
                "export function load() { return readFile('x'); }\n"
            ),
        }
    )
    assert repo.dependents("src/node-fs.ts") == [("src/fs.ts", "getItem")]
