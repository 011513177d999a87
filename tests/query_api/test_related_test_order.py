"""The order of repocontext_related's tests (query_api/symbols/related.py): a package's own
tests before the other packages' fixtures that use it. On feathersjs/feathers, related of
packages/memory/src/index.ts listed packages/memory/test/index.test.ts ninth, after schema's,
authentication's and client's fixtures (they reference more of its names); koa's alike. An
index file was named for its folder, `src`, which no test is named for."""

from __future__ import annotations

from pathlib import Path

from query_api.symbols.related import ranked_tests, related_of, subject_names
from tests.query_api.test_symbol_dependents import repo_holding


def test_a_packages_index_under_src_is_named_for_the_package() -> None:
    found = {
        "packages/schema/test/fixture.ts": ["<file>", "MessageService", "ServiceTypes.users"],
        "packages/authentication-local/test/fixture.ts": ["ServiceTypes.users", "app"],
        "packages/client/test/fixture.ts": ["TodoService"],
        "packages/memory/test/index.test.ts": ["<file>"],
    }
    names = subject_names("packages/memory/src/index.ts", [])
    assert (
        ranked_tests(found, names, "packages/memory/src/index.ts")[0]
        == "packages/memory/test/index.test.ts"
    )
    koa = {"packages/koa/test/app.fixture.ts": ["app"], "packages/koa/test/index.test.ts": ["x"]}
    koa_names = subject_names("packages/koa/src/index.ts", [])
    assert (
        ranked_tests(koa, koa_names, "packages/koa/src/index.ts")[0]
        == "packages/koa/test/index.test.ts"
    )


def test_an_index_elsewhere_is_still_named_for_its_folder() -> None:
    assert subject_names("lib/router/index.js", []) == frozenset({"router"})
    assert subject_names("src/index.ts", []) == frozenset({"src"})


def test_a_files_own_packages_tests_come_before_another_packages_of_its_name() -> None:
    """packages/schema/test/hooks.test.ts (schema's hooks, calling feathers' createContext)
    came before feathers' own test/hooks/*.test.ts for packages/feathers/src/hooks.ts."""
    found = {
        "packages/schema/test/hooks.test.ts": ["<file>"],
        "packages/feathers/test/hooks/after.test.ts": ["<file>"],
        "packages/feathers/test/hooks/hooks.test.ts": ["<file>"],
    }
    subject = "packages/feathers/src/hooks.ts"
    assert ranked_tests(found, subject_names(subject, []), subject) == [
        "packages/feathers/test/hooks/hooks.test.ts",
        "packages/feathers/test/hooks/after.test.ts",
        "packages/schema/test/hooks.test.ts",
    ]


def test_a_test_marked_as_one_comes_before_a_bench_or_fixture_of_its_name() -> None:
    """unjs/unstorage: related of src/server.ts listed test/server.bench.ts (a benchmark, its
    `main`) before test/server.test.ts: both are named `server`, use it as much, and the
    path decided. A file whose name says it is a test (`.test.`, `.spec.`, `_test`, `Test`)
    comes before a bench, a fixture or a helper of the same name."""
    found = {"test/server.bench.ts": ["main"], "test/server.test.ts": ["<file>"]}
    subject = "src/server.ts"
    assert ranked_tests(found, subject_names(subject, []), subject) == [
        "test/server.test.ts",
        "test/server.bench.ts",
    ]
    fixture = {"test/drivers/deno-kv.fixture.ts": ["a", "b"], "test/drivers/deno-kv.test.ts": ["x"]}
    subject = "src/drivers/deno-kv.ts"
    assert ranked_tests(fixture, subject_names(subject, []), subject)[0] == (
        "test/drivers/deno-kv.test.ts"
    )


def test_a_file_no_test_uses_points_to_the_tests_of_a_file_using_it(tmp_path: Path) -> None:
    """feathers' packages/rest-client/src/base.ts: "tests: none", while
    rest-client/test/index.test.ts exercises it through index.ts's restClient."""
    files = {
        "packages/rest-client/src/base.ts": "export class Base { request() {} }\n",
        "packages/rest-client/src/index.ts": (
            "import { Base } from './base';\nexport const restClient = () => new Base();\n"
        ),
        "packages/rest-client/test/index.test.ts": (
            "import { restClient } from '../src/index';\nit('works', () => restClient());\n"
        ),
        "packages/other/src/user.ts": (
            "import { Base } from '../../rest-client/src/base';\nexport const u = new Base();\n"
        ),
    }
    with repo_holding(tmp_path, files) as repo:
        base = related_of(repo.resolver, repo.views, "r", "packages/rest-client/src/base.ts", 0)
        assert base.tests == []
        assert base.note == (
            "no test uses it or is named for it; the tests of a file using it may exercise it: "
            "related of packages/rest-client/src/index.ts"
        )
        index = related_of(repo.resolver, repo.views, "r", "packages/rest-client/src/index.ts", 0)
        assert index.tests and index.note is None


def test_a_ts_fixture_class_named_test_and_a_type_is_no_test_of_it(tmp_path: Path) -> None:
    """feathers' transport-commons/test/channels/dispatch.test.ts declares `class TestService`,
    a fixture service for the channels it tests, and imports nothing of src/client.ts: it was
    listed as a test of client.ts, which declares `class Service`. In TS/JS a test of a type
    imports it, so it is found as a dependent; the `Test{Name}` naming convention (Go's,
    Java's) named only fixtures."""
    files = {
        "src/client.ts": "export class Service { find() { return 1 } }\n",
        "src/channels.ts": "export const channels = () => 1\n",
        "test/dispatch.test.ts": (
            "import { channels } from '../src/channels'\n"
            "class TestService { find() { return channels() } }\n"
        ),
        "test/client.spec.ts": (
            "import { Service } from '../src/client'\nclass ServiceTest { s = new Service() }\n"
        ),
    }
    with repo_holding(tmp_path, files) as repo:
        assert [p for p, _ in repo.tests("src/client.ts")] == []  # dependents not passed in
        client = related_of(repo.resolver, repo.views, "r", "src/client.ts", 0)
        assert [t.path for t in client.tests] == ["test/client.spec.ts"]


def test_a_rust_files_own_unit_tests_are_its_tests(tmp_path: Path) -> None:
    """sharkdp/fd's src/filter/time.rs holds its tests in `#[cfg(test)] mod tests`, as Rust
    unit tests are written: related said "tests: none" and "no test uses it", sending the
    agent to config.rs's tests, though the file tests itself."""
    files = {
        "Cargo.toml": '[package]\nname = "fd"\n',
        "src/main.rs": "mod time;\n\nfn main() {\n    time::parse();\n}\n",
        "src/time.rs": (
            "pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
            "    fn helper() {}\n\n    #[test]\n    fn parses() {\n        parse();\n    }\n\n"
            "    #[tokio::test]\n    async fn parses_later() {}\n}\n"
        ),
        "src/plain.rs": "#[cfg(test)]\nfn not_a_test() {}\n",
        "tests/cli.rs": "#[test]\nfn runs() {}\n",
        # fd's filter/owner.rs: a macro makes its tests, which declares no test function
        "src/owner.rs": (
            "pub fn parse() {}\n\n#[cfg(test)]\nmod owner_parsing {\n"
            "    macro_rules! owner_tests {\n        () => {};\n    }\n    owner_tests! {}\n}\n"
        ),
    }
    with repo_holding(tmp_path, files) as repo:
        time = related_of(repo.resolver, repo.views, "r", "src/time.rs", 0)
        assert [(t.path, t.symbol) for t in time.tests] == [
            ("src/time.rs", "tests.parses"),
            ("src/time.rs", "tests.parses_later"),
        ]
        assert time.note is None
        assert related_of(repo.resolver, repo.views, "r", "src/plain.rs", 0).tests == []
        # a test file is no test of itself
        assert related_of(repo.resolver, repo.views, "r", "tests/cli.rs", 0).tests == []
        owner = related_of(repo.resolver, repo.views, "r", "src/owner.rs", 0)
        assert [(t.path, t.symbol) for t in owner.tests] == [("src/owner.rs", "owner_parsing")]


def test_another_rust_files_unit_tests_using_it_are_its_tests(tmp_path: Path) -> None:
    """fd's exec/mod.rs tests `generate_custom_path_separator` through fmt/mod.rs's template:
    related of fmt/mod.rs listed it among the dependents only, not its tests."""
    files = {
        "Cargo.toml": '[package]\nname = "fd"\n',
        "src/main.rs": "mod exec;\nmod fmt;\n\nfn main() {}\n",
        "src/fmt.rs": "pub fn render() {}\n",
        "src/exec.rs": (
            "pub fn run() {\n    crate::fmt::render();\n}\n\n#[cfg(test)]\nmod tests {\n"
            "    #[test]\n    fn renders() {\n        crate::fmt::render();\n    }\n}\n"
        ),
    }
    with repo_holding(tmp_path, files) as repo:
        fmt = related_of(repo.resolver, repo.views, "r", "src/fmt.rs", 0)
        assert [(t.path, t.symbol) for t in fmt.tests] == [("src/exec.rs", "tests.renders")]
        assert ("src/exec.rs", "run") in [(d.path, d.symbol) for d in fmt.dependents]
