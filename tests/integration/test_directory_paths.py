"""outline and related on a directory: the answer says it is one, with files to name.

A QA pass on encode/starlette: `repocontext_outline {"path": "starlette"}` and `related
{"path": "starlette/"}` answered "starlette is not indexed in starlette", which reads as a
file the index left out."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession

from tests.integration.mcp_helpers import call, stdio_session, wait_indexed

pytestmark = pytest.mark.anyio


async def absent_note(
    session: ClientSession, repo_id: str, tool: str, path: str
) -> tuple[str, str]:
    """(note, text block) of `tool` on a path that names no indexed file, once the answer
    says `exists: false`."""
    answer = await session.call_tool(tool, {"repoId": repo_id, "path": path})
    got = answer.structuredContent
    assert got is not None and got["exists"] is False, got
    text = " ".join(getattr(block, "text", "") for block in answer.content)
    return str(got.get("note", "")), text


async def assert_unnoted(session: ClientSession, repo_id: str, path: str) -> None:
    """An outline of `path` says `exists: false` with no note: nothing indexed is named so."""
    missing = await call(session, "repocontext_outline", {"repoId": repo_id, "path": path})
    assert missing["exists"] is False and "note" not in missing, missing


async def test_a_directory_is_said_to_be_one(sample_repo: Path, tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "src/billing"),
            ("repocontext_related", "src/billing/"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert note.startswith("src/billing is a directory"), note
            assert "src/billing/invoice.py" in note, note
            assert "is a directory" in text and "not indexed" not in text, text
        await assert_unnoted(session, "sample", "nope.py")


async def test_a_directory_names_its_code_files_first(tmp_path: Path) -> None:
    """QA on feathersjs/feathers: related of `packages/koa` said "indexed files under it
    include packages/koa/CHANGELOG.md, packages/koa/LICENSE, packages/koa/README.md": the
    first three by path, none of which outline or related says anything of. The note names
    its source files, shallowest and an index first."""
    repo = tmp_path / "workspace" / "mono"
    (repo / "packages" / "koa" / "src").mkdir(parents=True)
    (repo / "packages" / "koa" / "test").mkdir()
    for name in ("CHANGELOG.md", "LICENSE", "README.md"):
        (repo / "packages" / "koa" / name).write_text("# koa\n")
    (repo / "packages" / "koa" / "package.json").write_text('{"name": "@x/koa"}\n')
    for name in ("authentication", "declarations", "handlers", "index"):
        (repo / "packages" / "koa" / "src" / f"{name}.ts").write_text("export const a = 1\n")
    (repo / "packages" / "koa" / "test" / "index.test.ts").write_text("it('x', () => 1)\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "mono")
        note, _ = await absent_note(session, "mono", "repocontext_related", "packages/koa")
        assert note == (
            "packages/koa is a directory (indexed files under it include "
            "packages/koa/src/index.ts, packages/koa/src/authentication.ts, "
            "packages/koa/src/declarations.ts): name a file"
        ), note


async def test_a_ts_module_named_without_its_extension_names_its_file(tmp_path: Path) -> None:
    """QA on sindresorhus/got: related lists a TS import as its module, `source/core/options`;
    outline of that answered "source/core/options is not indexed in got", though
    `source/core/options.ts` is. The note now names the file (an ESM `.js` specifier too)."""
    repo = tmp_path / "workspace" / "web"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "options.ts").write_text("export const limit = 2;\n")
    (repo / "src" / "index.ts").write_text("import {limit} from './options.js';\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "web")
        related = await call(
            session, "repocontext_related", {"repoId": "web", "path": "src/index.ts"}
        )
        assert "src/options" in related["imports"], related
        for tool, path in (
            ("repocontext_outline", "src/options"),
            ("repocontext_related", "src/options.js"),
        ):
            note, text = await absent_note(session, "web", tool, path)
            assert "src/options.ts" in note and "src/options.ts" in text, (note, text)


async def test_a_file_named_with_its_lines_names_the_file(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on sindresorhus/ky: search's text block names a hit `source/utils/is-network-error.ts:
    18-49`; outline and related of that spelling (or `:12`, `#L12`) answered `exists: false`
    with no note, as for a file the index does not hold."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "src/billing/invoice.py:3-9"),
            ("repocontext_related", "src/billing/invoice.py#L3"),
            ("repocontext_outline", "src/billing/invoice.py:3:5"),
            # a declaration after the file, as Rust paths and test ids write it (casey/just:
            # `src/lib.rs::Parser` answered "not indexed")
            ("repocontext_outline", "src/billing/invoice.py::InvoiceCalculator"),
            ("repocontext_related", "src/billing/invoice.py::InvoiceCalculator.compute_total"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert "the indexed file src/billing/invoice.py" in note, note
            assert "src/billing/invoice.py: name the file alone" in text, text
        await assert_unnoted(session, "sample", "nope.py:12")


async def test_a_declaration_named_as_the_path_names_its_file(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on go-gorm/gorm and python-poetry/poetry: related of `gorm.DB` and outline of
    `poetry.installation.installer.Installer` (a declaration's name, as outline and search
    show it) answered `exists: false` with no note, as for a name nothing declares."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "billing.invoice.InvoiceCalculator"),
            ("repocontext_related", "InvoiceCalculator.compute_total"),
        ):
            note, _ = await absent_note(session, "sample", tool, path)
            assert "declared in src/billing/invoice.py" in note, note
        await assert_unnoted(session, "sample", "billing.Nowhere")


async def test_a_bare_declaration_name_as_the_path_names_its_file(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on spf13/cobra: outline of `Command.getCompletions` named completions.go, but
    outline of `CompletionOptions` and related of `getCompletions` (the name alone, as an
    agent copies it from code or a search snippet) answered 'not indexed' with no note, as
    for a name nothing declares. A bare name nothing declares still gets none."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "InvoiceCalculator"),
            ("repocontext_related", "compute_total"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert "declared in src/billing/invoice.py" in note, note
            assert "declared in src/billing/invoice.py" in text, text
        await assert_unnoted(session, "sample", "Nowhere")


async def test_a_file_on_disk_the_index_left_out_is_said_to_be_one(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on python-poetry/poetry: outline of a wheel under tests/fixtures (a binary the walk
    leaves out) answered `exists: false` with no note, as for a typo. A symbolic link to a
    file outside the repository says nothing of it."""
    (sample_repo / "src" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 8)
    outside = tmp_path / "secret.txt"
    outside.write_text("not the repository's\n")
    (sample_repo / "src" / "elsewhere.txt").symlink_to(outside)
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool in ("repocontext_outline", "repocontext_related"):
            got = await call(session, tool, {"repoId": "sample", "path": "src/logo.png"})
            assert got["exists"] is False, got
            assert got.get("note", "").startswith("src/logo.png is on disk but not indexed"), got
            linked = await call(session, tool, {"repoId": "sample", "path": "src/elsewhere.txt"})
            assert linked["exists"] is False and "note" not in linked, linked


async def test_an_import_specifier_named_as_the_path_names_its_file(tmp_path: Path) -> None:
    """QA on nitrojs/nitro: its files import `nitro/app` (package.json `exports`, built from
    src/) and `#nitro/runtime/app` (`imports`); outline of either answered "nitro/app is
    not indexed in nitro", as for a file the index left out. The note names the file."""
    repo = tmp_path / "workspace" / "nitro"
    (repo / "src" / "runtime" / "internal").mkdir(parents=True)
    (repo / "package.json").write_text(
        '{"name": "nitro", "imports": {"#nitro/runtime/*": "./dist/runtime/internal/*.mjs"},'
        ' "exports": {"./app": "./dist/runtime/app.mjs"}}\n'
    )
    (repo / "src" / "runtime" / "app.ts").write_text("export const app = 1;\n")
    (repo / "src" / "runtime" / "internal" / "app.ts").write_text("export const a = 2;\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "nitro")
        for tool, path, named in (
            ("repocontext_outline", "nitro/app", "src/runtime/app.ts"),
            ("repocontext_related", "#nitro/runtime/app", "src/runtime/internal/app.ts"),
        ):
            got = await call(session, tool, {"repoId": "nitro", "path": path})
            assert got["exists"] is False, got
            assert got.get("note", "").startswith(f"{path} is an import specifier"), got
            assert named in got["note"], got
        await assert_unnoted(session, "nitro", "h3")


async def test_a_file_declaring_nothing_names_what_it_imports(tmp_path: Path) -> None:
    """QA on nitrojs/nitro: outline of src/runtime/cache.ts, one line re-exporting two
    functions of ./internal/cache.ts, answered 1 line and no symbols, nothing on where the
    code is. The note names the modules it imports (a barrel's, an entry point's)."""
    repo = tmp_path / "workspace" / "web"
    (repo / "src" / "internal").mkdir(parents=True)
    (repo / "src" / "internal" / "cache.ts").write_text("export function cached() {}\n")
    (repo / "src" / "cache.ts").write_text('export { cached } from "./internal/cache.ts";\n')
    (repo / "src" / "empty.ts").write_text("// nothing here yet\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "web")
        got = await call(session, "repocontext_outline", {"repoId": "web", "path": "src/cache.ts"})
        assert got["exists"] is True and not got.get("symbols"), got
        assert "src/internal/cache" in got.get("note", ""), got
        empty = await call(
            session, "repocontext_outline", {"repoId": "web", "path": "src/empty.ts"}
        )
        assert "note" not in empty, empty


async def test_a_file_declaring_nothing_names_the_files_it_imports_not_import_entries(
    tmp_path: Path,
) -> None:
    """QA on feathersjs/feathers: outline of packages/transport-commons/client.d.ts (`export *
    from './lib/client'`, a shim for the build of src/client.ts) said "it imports
    packages/transport-commons/lib/client#=*: outline those": the stored import entry with
    its re-export mark, naming a build folder nothing indexes. The note names the files the
    imports lead to, as related's `imports` resolves them."""
    repo = tmp_path / "workspace" / "tc"
    (repo / "src" / "internal").mkdir(parents=True)
    (repo / "package.json").write_text('{"name": "tc", "main": "lib/"}\n')
    (repo / "src" / "client.ts").write_text("export class Service {}\n")
    (repo / "client.d.ts").write_text("export * from './lib/client'\n")
    (repo / "src" / "internal" / "cache.ts").write_text("export function cached() {}\n")
    (repo / "src" / "util.ts").write_text("export const one = 1\n")
    (repo / "src" / "barrel.ts").write_text(
        "export { cached as memo } from './internal/cache'\nexport * as util from './util'\n"
    )
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "tc")
        shim = await call(session, "repocontext_outline", {"repoId": "tc", "path": "client.d.ts"})
        assert shim.get("note") == (
            "client.d.ts declares nothing itself; it imports src/client.ts: outline those"
        ), shim
        barrel = await call(
            session, "repocontext_outline", {"repoId": "tc", "path": "src/barrel.ts"}
        )
        assert barrel.get("note") == (
            "src/barrel.ts declares nothing itself; it imports src/internal/cache.ts, "
            "src/util.ts: outline those"
        ), barrel


async def test_a_file_whose_code_is_its_default_export_is_no_barrel(tmp_path: Path) -> None:
    """QA on axios/axios: outline of lib/helpers/resolveConfig.js (`export default (config)
    => {...}`, 47 lines of the fetch and xhr adapters' config logic) said "declares nothing
    itself; it imports lib/core/AxiosHeaders.js, ... and 5 more: outline those", sending the
    agent to eight files none of which holds that code. A file whose code is an expression
    it exports by default is told so, with the line it starts on; a barrel keeps its note."""
    repo = tmp_path / "workspace" / "ax"
    (repo / "lib").mkdir(parents=True)
    (repo / "lib" / "merge.js").write_text("export default function merge(a, b) {}\n")
    (repo / "lib" / "resolve.js").write_text(
        "import merge from './merge.js';\n\n"
        "export default (config) => {\n  const out = merge({}, config);\n  return out;\n};\n"
    )
    (repo / "lib" / "index.js").write_text("export { default as merge } from './merge.js';\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "ax")
        code = await call(
            session, "repocontext_outline", {"repoId": "ax", "path": "lib/resolve.js"}
        )
        assert code.get("note") == (
            "lib/resolve.js declares no name: its code is the expression it exports by "
            "default, from line 3; it imports lib/merge.js"
        ), code
        barrel = await call(
            session, "repocontext_outline", {"repoId": "ax", "path": "lib/index.js"}
        )
        assert barrel.get("note") == (
            "lib/index.js declares nothing itself; it imports lib/merge.js: outline those"
        ), barrel


async def test_a_path_missing_its_leading_folders_names_the_file(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on pallets/jinja: outline of `jinja2/utils.py` (the path as the package imports it,
    without `src/`) and of `utils.py` answered "not indexed" with no note, though
    `src/jinja2/utils.py` is. A path no indexed file ends with still gets none."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "billing/invoice.py"),
            ("repocontext_related", "invoice.py"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert note == (
                f"{path} is no path from the repository root; the indexed file "
                "src/billing/invoice.py ends with it: name that file"
            ), note
            assert "src/billing/invoice.py ends with it" in text, text
        for path in ("voice.py", "billing/nope.py"):
            await assert_unnoted(session, "sample", path)


async def test_a_path_with_leading_folders_too_many_names_the_file(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on uber-go/zap: outline of `src/zapcore/level.go` (the path with the checkout's
    folder in front, as an agent writes it from its working directory) answered `exists:
    false` with no note, though `zapcore/level.go` is indexed; the note said nothing of a
    path with more leading folders than a repository path, only of one with fewer. The
    longest end of it that is an indexed file is named; an end naming none gets no note."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path, drop in (
            ("repocontext_outline", "sample/src/billing/invoice.py", "sample/"),
            ("repocontext_related", "work/sample/src/billing/invoice.py", "work/sample/"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert note == (
                f"{path} is no path from the repository root; without its leading {drop} it "
                "is the indexed file src/billing/invoice.py: name that file"
            ), note
            assert "it is the indexed file src/billing/invoice.py" in text, text
        for path in ("sample/src/billing/nope.py", "sample/nope/voice.py"):
            await assert_unnoted(session, "sample", path)


async def test_a_path_in_another_case_names_the_file(sample_repo: Path, tmp_path: Path) -> None:
    """QA on uber-go/zap: outline of `ZAPCORE/LEVEL.GO` (an agent on a case-insensitive
    filesystem, or copying a path from prose) answered `exists: false` with no note, though
    zapcore/level.go is indexed: paths are matched exactly, and nothing said the case was
    all that differed."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "SRC/Billing/Invoice.py"),
            ("repocontext_related", "src/billing/INVOICE.PY"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert note == (
                f"{path} is no indexed file; src/billing/invoice.py is, in another case: "
                "name that file"
            ), note
            assert "src/billing/invoice.py is, in another case" in text, text
        await assert_unnoted(session, "sample", "SRC/Billing/Nope.py")


async def test_a_python_module_named_as_imported_names_its_file(tmp_path: Path) -> None:
    """QA on fastapi/typer: related lists a Python file's imports as modules
    (`typer._click.core`), and outline or related of such a module (or of `typer/core`, the
    path without `.py`) answered "typer.core is not indexed in src" with no note, as for a
    file the index left out. The note names the module's file (a package's __init__.py;
    under a source folder such as `src/` too); a module no file is named for gets none."""
    repo = tmp_path / "workspace" / "shop"
    (repo / "src" / "shop" / "api").mkdir(parents=True)
    (repo / "src" / "shop" / "__init__.py").write_text("")
    (repo / "src" / "shop" / "api" / "__init__.py").write_text("from .routes import route\n")
    (repo / "src" / "shop" / "api" / "routes.py").write_text("def route():\n    return 1\n")
    (repo / "src" / "shop" / "orders.py").write_text(
        "from shop.api import route\n\n\nclass OrderService:\n    pass\n"
    )
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "shop")
        related = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "src/shop/orders.py"}
        )
        assert "shop.api" in related["imports"], related
        for tool, path, file in (
            ("repocontext_related", "shop.api", "src/shop/api/__init__.py"),
            ("repocontext_outline", "shop.orders", "src/shop/orders.py"),
            ("repocontext_outline", "shop/api/routes", "src/shop/api/routes.py"),
        ):
            note, text = await absent_note(session, "shop", tool, path)
            assert note == (
                f"{path} is no file; as a Python module it is {file}: name that file"
            ), note
            assert f"as a Python module it is {file}" in text, text
        note, _ = await absent_note(
            session, "shop", "repocontext_outline", "shop.orders.OrderService"
        )
        assert "declared in src/shop/orders.py" in note, note
        await assert_unnoted(session, "shop", "shop.billing")


async def test_a_python_package_init_of_constants_names_the_files_it_imports(
    tmp_path: Path,
) -> None:
    """QA on fastapi/typer: outline of typer/__init__.py, which re-exports Typer, Option,
    echo and 24 more names from the package's modules, listed `3 Field typer.__version__ =
    "0.27.1"` and nothing on where those names are: a file declaring nothing at all gets
    the note naming its imports, one declaring a constant did not. An __init__.py that
    declares no function or class names the package's files it imports (the standard
    library's modules left out); one declaring a function is outlined as before."""
    repo = tmp_path / "workspace" / "shop"
    (repo / "shop" / "api").mkdir(parents=True)
    (repo / "shop" / "__init__.py").write_text(
        '__version__ = "1.0"\n\nimport os\n\nfrom .orders import OrderService as '
        "OrderService\nfrom .api import route as route\nfrom . import money as money\n"
    )
    (repo / "shop" / "orders.py").write_text("class OrderService:\n    pass\n")
    (repo / "shop" / "money.py").write_text("def cents(x):\n    return x * 100\n")
    (repo / "shop" / "api" / "__init__.py").write_text(
        "from .routes import route\n\n\ndef mount():\n    return route\n"
    )
    (repo / "shop" / "api" / "routes.py").write_text("def route():\n    return 1\n")
    (repo / "shop" / "bare").mkdir()
    (repo / "shop" / "bare" / "__init__.py").write_text(
        "import os\n\nfrom shop.orders import OrderService\nfrom shop import money\n"
    )
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "shop")
        init = await call(
            session, "repocontext_outline", {"repoId": "shop", "path": "shop/__init__.py"}
        )
        assert [s["fullyQualifiedName"] for s in init["symbols"]] == ["shop.__version__"]
        assert init.get("note") == (
            "shop/__init__.py declares no function or class; it imports shop/api/__init__.py, "
            "shop/money.py, shop/orders.py: outline those"
        ), init
        api = await call(
            session, "repocontext_outline", {"repoId": "shop", "path": "shop/api/__init__.py"}
        )
        assert "note" not in api, api
        # one declaring nothing named the modules (`shop.orders`): now their files too
        bare = await call(
            session, "repocontext_outline", {"repoId": "shop", "path": "shop/bare/__init__.py"}
        )
        # `from shop import money` imports the module shop/money.py too (0bbfa96)
        assert bare.get("note") == (
            "shop/bare/__init__.py declares nothing itself; it imports os, shop/__init__.py, "
            "shop/money.py and 1 more: outline those"
        ), bare


async def test_changed_of_a_python_package_name_names_its_folder(tmp_path: Path) -> None:
    """QA on fastapi/typer: changed of `typer._click` (a package as related's imports and
    code name it) answered "path 'typer._click' does not exist, and no indexed file is under
    it", as for a typo; it names the package's folder to scope by, as for a Java package."""
    repo = tmp_path / "workspace" / "shop"
    (repo / "src" / "shop" / "api").mkdir(parents=True)
    (repo / "src" / "shop" / "__init__.py").write_text("")
    (repo / "src" / "shop" / "api" / "__init__.py").write_text("def route():\n    return 1\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "shop")
        answer = await session.call_tool(
            "repocontext_changed", {"repoId": "shop", "path": "shop.api"}
        )
        text = " ".join(getattr(block, "text", "") for block in answer.content)
        assert answer.isError, text
        assert (
            "path 'shop.api' is a Python package, no folder; its files are in src/shop/api: "
            "name that folder"
        ) in text, text


async def test_a_misspelt_path_names_the_indexed_files_it_is_close_to(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on encode/uvicorn: outline of `uvicorn/middleware/proxy_header.py` (for
    proxy_headers.py) answered `exists: false` with no note. A file name a letter or two
    away from one in the same folder, or a folder a letter away for a file of that name, is
    named; a name nothing resembles still gets no note."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for tool, path in (
            ("repocontext_outline", "src/billing/invoices.py"),
            ("repocontext_related", "src/bliling/invoice.py"),
        ):
            note, text = await absent_note(session, "sample", tool, path)
            assert note == (
                f"{path} is no indexed file; the closest is src/billing/invoice.py: name "
                "that file if it is the one"
            ), note
            assert "the closest is src/billing/invoice.py" in text, text
        for path in ("src/billing/nope.py", "src/orders/invoice.py"):
            await assert_unnoted(session, "sample", path)


async def test_related_of_a_doc_or_config_file_says_what_related_lists(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on uber-go/zap: related of go.mod answered no lists and no note, which reads as a
    file nothing uses."""
    (sample_repo / "go.mod").write_text("module example.com/sample\n\ngo 1.22\n")
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        for path, kind in (("go.mod", "a config file"), ("docs/guide.md", "documentation")):
            got = await call(session, "repocontext_related", {"repoId": "sample", "path": path})
            assert got["exists"] is True and not got.get("dependents"), got
            assert got["note"] == (
                f"{path} is {kind}: related lists the imports, dependents and tests of code; "
                f"repocontext_search for {path.rpartition('/')[2]} finds the files naming it"
            ), got
        code = await call(
            session, "repocontext_related", {"repoId": "sample", "path": "src/billing/ledger.py"}
        )
        assert "related lists" not in code.get("note", ""), code


async def test_a_barrel_of_other_packages_sends_nowhere_to_outline(tmp_path: Path) -> None:
    """QA on oakserver/oak: outline of deps.ts (`export { createHttpError } from
    "jsr:@oak/commons@^1.0/http_errors"`, and 17 more such) said "it imports jsr:@oak/commons
    @^1.0/cookie_map, ... and 15 more: outline those", modules no outline can open. A file
    whose imports are no indexed file says so; one importing a file of the repository keeps
    "outline those"."""
    repo = tmp_path / "workspace" / "dn"
    repo.mkdir(parents=True)
    (repo / "deps.ts").write_text(
        'export { createHttpError, HttpError } from "jsr:@oak/commons@^1.0/http_errors";\n'
        'export { KeyStack } from "jsr:@oak/commons@^1.0/keystack";\n'
    )
    (repo / "util.ts").write_text("export const one = 1;\n")
    (repo / "mod.ts").write_text(
        'export { one } from "./util.ts";\nexport { KeyStack } from "jsr:@oak/commons/keystack";\n'
    )
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "dn")
        deps = await call(session, "repocontext_outline", {"repoId": "dn", "path": "deps.ts"})
        assert deps.get("note") == (
            "deps.ts declares nothing itself; it imports jsr:@oak/commons@^1.0/http_errors, "
            "jsr:@oak/commons@^1.0/keystack, no file indexed here"
        ), deps
        mod = await call(session, "repocontext_outline", {"repoId": "dn", "path": "mod.ts"})
        assert str(mod.get("note", "")).endswith(": outline those"), mod
