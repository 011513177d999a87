"""A declaration's name given as the path, declared in several files, says how many and asks
for one of them.

QA on go-kratos/kratos: outline of `main.main` answered "main.main is no file; it is declared
in cmd/kratos/main.go, cmd/protoc-gen-go-errors/main.go, cmd/protoc-gen-go-http/main.go: name
that file", three files and "that file"; and with more files than the three it names, it did
not say others were left out (the path-suffix note says "and N more: name one")."""

from __future__ import annotations

from pathlib import Path

from tests.integration.mcp_helpers import stdio_session, wait_indexed
from tests.integration.test_directory_paths import absent_note, pytestmark  # noqa: F401

MAIN = 'package main\n\nfunc main() { println("x") }\n'


async def test_a_name_several_files_declare_asks_for_one(tmp_path: Path) -> None:
    repo = tmp_path / "workspace" / "tools"
    for tool in ("a", "b", "c", "d"):
        (repo / "cmd" / tool).mkdir(parents=True)
        (repo / "cmd" / tool / "main.go").write_text(MAIN)
    (repo / "lib").mkdir()
    (repo / "lib" / "lib.go").write_text("package lib\n\nfunc Only() {}\n")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "tools")
        note, _ = await absent_note(session, "tools", "repocontext_outline", "main.main")
        assert note == (
            "main.main is no file; it is declared in 4 files, cmd/a/main.go, cmd/b/main.go, "
            "cmd/c/main.go and 1 more: name one"
        ), note
        note, _ = await absent_note(session, "tools", "repocontext_related", "lib.Only")
        assert note == "lib.Only is no file; it is declared in lib/lib.go: name that file", note


async def test_the_source_declaring_a_name_comes_before_the_bundles(tmp_path: Path) -> None:
    """QA on axios/axios, which commits its builds: related of `AxiosHeaders` said "declared
    in 5 files, dist/axios.js, dist/browser/axios.cjs, dist/node/axios.cjs and 2 more": the
    bundles first by path, lib/core/AxiosHeaders.js, the one to edit, among the 2 more."""
    repo = tmp_path / "workspace" / "ax"
    (repo / "dist" / "browser").mkdir(parents=True)
    (repo / "lib" / "core").mkdir(parents=True)
    body = "class AxiosHeaders {\n  get(h) { return h; }\n}\n"
    for bundle in ("dist/axios.js", "dist/browser/axios.cjs", "dist/axios.min.js"):
        (repo / bundle).write_text(body)
    (repo / "lib" / "core" / "AxiosHeaders.js").write_text(f"export default {body}")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "ax")
        note, _ = await absent_note(session, "ax", "repocontext_related", "AxiosHeaders")
        assert note == (
            "AxiosHeaders is no file; it is declared in 4 files, lib/core/AxiosHeaders.js, "
            "dist/axios.js, dist/axios.min.js and 1 more: name one"
        ), note


async def test_a_name_a_source_file_is_named_for_names_that_file(tmp_path: Path) -> None:
    """QA on axios/axios: outline of `resolveConfig` said "declared in 3 files,
    dist/browser/axios.cjs, dist/esm/axios.js, dist/node/axios.cjs: name one": only the
    builds declare the name, since lib/helpers/resolveConfig.js exports an anonymous arrow
    function by default. The file named for it is named first."""
    repo = tmp_path / "workspace" / "ax"
    (repo / "dist").mkdir(parents=True)
    (repo / "lib" / "helpers").mkdir(parents=True)
    (repo / "dist" / "axios.js").write_text("function resolveConfig(config) { return config; }\n")
    (repo / "lib" / "helpers" / "resolveConfig.js").write_text(
        "export default (config) => {\n  return config;\n};\n"
    )
    (repo / "lib" / "helpers" / "buildURL.js").write_text(
        "export default function buildURL(url) { return url; }\n"
    )
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "ax")
        note, _ = await absent_note(session, "ax", "repocontext_outline", "resolveConfig")
        assert note == (
            "resolveConfig is no file; lib/helpers/resolveConfig.js is named so, and "
            "dist/axios.js declares it: name one"
        ), note
        note, _ = await absent_note(session, "ax", "repocontext_related", "buildURL")
        assert (
            note == "buildURL is no file; it is declared in lib/helpers/buildURL.js: name that file"
        )
