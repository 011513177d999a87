"""A committed build (a bundler's dist/ output) declares and calls every name of its sources:
a definition query lifts it only when no source declares the name, and a users query lists it
after the source users. QA on axios/axios: `where is mergeConfig defined` lifted dist/axios.js,
dist/browser/axios.cjs and dist/node/axios.cjs beside lib/core/mergeConfig.js, and `what calls
buildFullPath` placed the bundles among lib's callers, above the function's test."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from query_api.retrieval.builds_last import sources_over_builds, users_before_builds
from query_api.retrieval.defining_files import defining_files
from query_api.retrieval.file_graph import FileGraphs
from query_api.retrieval.name_users import NameUsers
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.test_symbol_dependents import repo_holding
from tests.streams.symbol_records import records

MERGE = "export default function mergeConfig(a, b) {\n  return {...a, ...b};\n}\n"
BUNDLE = (
    "function mergeConfig(a, b) {\n  return Object.assign({}, a, b);\n}\n\n"
    "function create(c) {\n  return mergeConfig({}, c);\n}\n"
)
PROTO = "function Message() {}\n"
# a bundle past the text a file's tools read (64 Ki characters): its `module.exports` unread
PAD = "".join(f"const helper{i} = () => {i};\n" for i in range(4000))


def _defining(tmp_path: Path, query: str, files: dict[str, str]) -> set[str]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: defining_files(conn, "r", query))


def test_a_definition_query_leaves_the_builds_declaring_a_source_name_out(
    tmp_path: Path,
) -> None:
    files = {"lib/core/mergeConfig.js": MERGE, "dist/axios.js": BUNDLE, "dist/esm/axios.js": BUNDLE}
    assert _defining(tmp_path, "where is mergeConfig defined", files) == {"lib/core/mergeConfig.js"}


def test_a_name_only_a_build_declares_is_defined_there(tmp_path: Path) -> None:
    files = {"lib/core/mergeConfig.js": MERGE, "dist/axios.js": BUNDLE + PROTO}
    assert _defining(tmp_path, "where is Message defined", files) == {"dist/axios.js"}


def test_a_query_asking_for_generated_code_keeps_the_builds() -> None:
    paths = {"lib/a.js", "dist/a.js"}
    assert sources_over_builds(paths, {"dist/a.js"}, "where is a in the generated code") == paths
    assert sources_over_builds(paths, {"dist/a.js"}, "where is a defined") == {"lib/a.js"}


def _hit(path: str, score: float, reason: str) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(entry=entry, score=score, reasons=[reason])


def test_users_list_the_builds_after_the_source_users() -> None:
    hits = [
        _hit("lib/adapters/http.js", 9.0, "uses:buildFullPath"),
        _hit("dist/node/axios.cjs", 9.0, "uses:buildFullPath"),
        _hit("lib/core/Axios.js", 9.0, "uses:buildFullPath"),
        _hit("test/buildFullPath.spec.js", 9.0, "uses:buildFullPath"),
        _hit("lib/core/buildFullPath.js", 4.0, "symbol:buildFullPath"),
    ]
    ordered = users_before_builds(hits, {"dist/node/axios.cjs"}, "what calls buildFullPath")
    assert [hit.entry.path for hit in ordered] == [
        "lib/adapters/http.js",
        "lib/core/Axios.js",
        "test/buildFullPath.spec.js",
        "dist/node/axios.cjs",
        "lib/core/buildFullPath.js",
    ]
    assert [hit.score for hit in ordered] == sorted((hit.score for hit in ordered), reverse=True)


def test_a_script_importing_a_build_for_one_value_uses_none_of_its_names(tmp_path: Path) -> None:
    """QA on axios: bin/check-build-version.js (`import axiosBuild from
    '../dist/node/axios.cjs'`, reading its VERSION) was `uses:` every name the bundle
    declares again (mergeConfig, buildFullPath, isAbsoluteURL), with no line to show: the
    bundle's `module.exports = axios` lies past the text read, so its default export could
    be any of them."""
    files = {
        "lib/core/mergeConfig.js": MERGE,
        "lib/axios.js": (
            "import mergeConfig from './core/mergeConfig.js';\n\n"
            "export default function create(c) {\n  return mergeConfig({}, c);\n}\n"
        ),
        "dist/node/axios.cjs": (
            "'use strict';\n\n" + MERGE.removeprefix("export default ") + "\n"
            "function createInstance(defaultConfig) {\n"
            "  const instance = {};\n"
            "  instance.create = function create(instanceConfig) {\n"
            "    return createInstance(mergeConfig(defaultConfig, instanceConfig));\n"
            "  };\n  return instance;\n}\n\n"
            "const axios = createInstance({});\n\n"
            "// Expose mergeConfig\naxios.mergeConfig = mergeConfig;\n\n"
            + PAD
            + "axios.default = axios;\n\nmodule.exports = axios;\n"
        ),
        "bin/check-build-version.js": (
            "import axiosBuild from '../dist/node/axios.cjs';\n\nconsole.log(axiosBuild.VERSION);\n"
        ),
    }
    with repo_holding(tmp_path, files) as repo:
        graphs = cast(FileGraphs, SimpleNamespace(resolver=repo.resolver))
        users = NameUsers(repo.store, graphs).users_of("r", "mergeConfig")
    assert "bin/check-build-version.js" not in users
    assert "lib/axios.js" in users
