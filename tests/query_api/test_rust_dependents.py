"""Rust dependents and imports over real views fed by the real processors (QA on ripgrep:
dependents were matched by simple name, so every file naming an `Args`, an `Item` or a
`Matcher` was one). A reference counts only where a path leads to the declaring file: a use
leaf, a path in code, a glob import; a crate named by its Cargo.toml package name; a crate
root's re-exports followed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.test_symbol_dependents import Repo
from tests.streams.symbol_records import records

WORKSPACE = {
    "Cargo.toml": (
        '[package]\nname = "app"\n\n[[bin]]\nname = "app"\npath = "crates/core/main.rs"\n\n'
        '[workspace]\nmembers = ["crates/matcher"]\n\n'
        '[workspace.dependencies]\ngrep-matcher = { path = "crates/matcher" }\n\n'
        "[dependencies]\ngrep-matcher = { workspace = true }\n"
    ),
    "crates/core/main.rs": (
        "mod flags;\nmod search;\nmod messages;\n\n"
        "use crate::{flags::{Args, parse}, search::Worker};\n\n"
        "fn main() {\n    let args: Args = parse();\n    Worker::new(args);\n"
        '    flags::generate_version_short();\n    msg!("done");\n}\n'
    ),
    "crates/core/flags/mod.rs": (
        "mod defs;\nmod version;\n\npub use self::defs::Args;\n"
        "pub use self::version::generate_short as generate_version_short;\n\n"
        "pub fn parse() -> Args {\n    Args {}\n}\n"
    ),
    "crates/core/flags/defs.rs": "pub struct Args {}\n",
    "crates/core/flags/version.rs": "pub fn generate_short() -> u8 {\n    1\n}\n",
    "crates/core/search.rs": (
        "use grep_matcher::Matcher;\n\npub struct Worker;\n\nimpl Worker {\n"
        "    pub fn new(args: crate::flags::Args) -> Worker {\n        Worker\n    }\n}\n\n"
        "impl Iterator for Worker {\n    type Item = u8;\n"
        "    fn next(&mut self) -> Option<u8> { None }\n}\n\n"
        "mod tests {\n    use super::*;\n    fn make() -> Worker { Worker }\n}\n"
    ),
    "crates/core/messages.rs": "#[macro_export]\nmacro_rules! msg {\n    ($($t:tt)*) => {};\n}\n",
    # a file's own helper macro, not std's `write!` of every other file
    "crates/core/doc.rs": (
        "macro_rules! write {\n    ($($t:tt)*) => {};\n}\n\nfn help() { write!(1); }\n"
    ),
    "crates/core/glob_user.rs": (
        "use crate::search::*;\nuse std::fmt::Write;\n\nfn run(w: Worker) { write!(w); }\n"
    ),
    # names that no path leads to: another crate's `Args`, `Worker` and `Matcher` (which
    # would not compile), any iterator's `Item`
    "crates/core/unrelated.rs": (
        "fn count<I: Iterator<Item = u8>>(i: I, a: Args, w: Worker, m: &dyn Matcher) {}\n"
    ),
    # a module and the function it declares share a name
    "crates/core/engine/mod.rs": "mod complete;\n\npub use complete::complete;\n",
    "crates/core/engine/complete.rs": "pub fn complete() {}\n",
    "crates/core/shells.rs": "fn run() {\n    crate::engine::complete();\n}\n",
    "src/lib.rs": "pub fn shared() {}\n",
    # a member depending on the root package by `path = "../.."`
    "crates/tool/Cargo.toml": (
        '[package]\nname = "tool"\n\n[dependencies]\napp = { path = "../.." }\n'
    ),
    "crates/tool/src/lib.rs": "use app::shared;\n\npub fn run() {\n    shared();\n}\n",
    "crates/matcher/Cargo.toml": '[package]\nname = "grep-matcher"\n',
    "crates/matcher/src/lib.rs": "mod matcher;\n\npub use crate::matcher::Matcher;\n",
    "crates/matcher/src/matcher.rs": (
        "pub trait Matcher {\n    type Item;\n    fn find(&self) -> Option<Self::Item>;\n}\n"
    ),
    "crates/matcher/src/other.rs": 'fn f() { msg!("another crate\'s msg"); }\n',
}


class RustRepo(Repo):
    def dependent_files(self, path: str) -> list[str]:
        return sorted({p for p, _ in self.dependents(path)})


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[RustRepo]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([r for path, body in WORKSPACE.items() for r in records(path, body)], {})
        yield RustRepo(store)


def test_a_name_counts_only_where_a_path_leads_to_its_file(repo: RustRepo) -> None:
    # main.rs through flags/mod.rs's `pub use self::defs::Args`, search.rs by the path
    # `crate::flags::Args`
    assert repo.dependent_files("crates/core/flags/defs.rs") == [
        "crates/core/flags/mod.rs",
        "crates/core/main.rs",
        "crates/core/search.rs",
    ]


def test_a_bare_name_counts_through_a_glob_import_only(repo: RustRepo) -> None:
    # search.rs's associated `type Item` is not the `Item` of every `Iterator<Item = u8>`
    assert repo.dependent_files("crates/core/search.rs") == [
        "crates/core/glob_user.rs",
        "crates/core/main.rs",
    ]


def test_another_crate_is_named_by_its_package_through_its_roots_re_exports(repo: RustRepo) -> None:
    # `use grep_matcher::Matcher` (a `workspace = true` dependency) reaches matcher.rs through
    # lib.rs's `pub use`
    assert repo.dependent_files("crates/matcher/src/matcher.rs") == [
        "crates/core/search.rs",
        "crates/matcher/src/lib.rs",
    ]


def test_a_function_re_exported_under_another_name_is_found_by_that_name(repo: RustRepo) -> None:
    assert repo.dependent_files("crates/core/flags/version.rs") == [
        "crates/core/flags/mod.rs",
        "crates/core/main.rs",
    ]


def test_a_dependency_on_the_root_package_by_a_relative_path(repo: RustRepo) -> None:
    assert repo.dependent_files("src/lib.rs") == ["crates/tool/src/lib.rs"]


def test_a_function_named_as_its_module_is_found_through_the_re_export(repo: RustRepo) -> None:
    assert repo.dependent_files("crates/core/engine/complete.rs") == [
        "crates/core/engine/mod.rs",
        "crates/core/shells.rs",
    ]


def test_an_exported_macro_is_seen_by_name_in_its_own_crate(repo: RustRepo) -> None:
    assert repo.dependent_files("crates/core/messages.rs") == ["crates/core/main.rs"]
    assert repo.dependent_files("crates/core/doc.rs") == []


def test_imports_are_the_files_use_leaves_lead_to(repo: RustRepo) -> None:
    # and the files its `mod` declarations load (messages.rs: `mod messages;` only)
    assert repo.resolver.imports("r", "crates/core/main.rs") == [
        "crates/core/flags/mod.rs",
        "crates/core/messages.rs",
        "crates/core/search.rs",
    ]
    assert repo.resolver.imports("r", "crates/core/search.rs") == ["crates/matcher/src/lib.rs"]


def test_the_module_layout_kept_between_answers_follows_new_files(repo: RustRepo) -> None:
    user = {"crates/core/user.rs": "use crate::extra::Extra;\n\nfn run(e: Extra) {}\n"}
    repo.store.apply([r for path, body in user.items() for r in records(path, body)], {})
    # no extra.rs yet: the path stops at the crate root (an inline module there, if any)
    assert repo.resolver.imports("r", "crates/core/user.rs") == ["crates/core/main.rs"]
    extra = {"crates/core/extra.rs": "pub struct Extra;\n"}
    repo.store.apply([r for path, body in extra.items() for r in records(path, body)], {})
    assert repo.resolver.imports("r", "crates/core/user.rs") == ["crates/core/extra.rs"]
    assert repo.dependent_files("crates/core/extra.rs") == ["crates/core/user.rs"]


# QA on casey/just: `impl PlatformInterface for Platform` sits in platform/unix.rs, a module
# below the file declaring `struct Platform`; `Platform::convert(...)` callers elsewhere were
# no one's dependents (the path leads to platform.rs, the method is declared in unix.rs)
IMPL_ELSEWHERE = {
    "Cargo.toml": '[package]\nname = "tool"\n',
    "src/lib.rs": (
        "mod function;\nmod other;\nmod platform;\nmod platform_interface;\n\n"
        "pub(crate) use {\n  crate::{platform::Platform, platform_interface::PlatformInterface},\n"
        "};\n"
    ),
    "src/platform.rs": "use super::*;\n\npub(crate) struct Platform;\n\n#[cfg(unix)]\nmod unix;\n",
    "src/platform/unix.rs": (
        "use super::*;\n\nimpl PlatformInterface for Platform {\n"
        "  fn convert(path: &str) -> String {\n    path.into()\n  }\n}\n"
    ),
    "src/platform_interface.rs": (
        "pub(crate) trait PlatformInterface {\n  fn convert(path: &str) -> String;\n}\n"
    ),
    "src/function.rs": (
        "use super::*;\n\npub(crate) fn native(path: &str) -> String {\n"
        "  Platform::convert(path)\n}\n"
    ),
    # a type of the same name of its own (shadowing the glob's), with a method of the same
    # name: not unix.rs's
    "src/other.rs": (
        "use super::*;\n\nstruct Platform;\n\nimpl Platform {\n"
        "  fn convert(path: &str) -> String {\n    String::new()\n  }\n}\n\n"
        'fn run() -> String {\n  Platform::convert("")\n}\n'
    ),
}


def test_a_method_implemented_in_another_module_is_found_through_its_type(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([r for p, body in IMPL_ELSEWHERE.items() for r in records(p, body)], {})
        repo = RustRepo(store)
        assert repo.dependents("src/platform/unix.rs") == [("src/function.rs", "native")]
        assert repo.dependent_files("src/other.rs") == []


def test_a_path_through_a_type_is_a_use_of_the_type(tmp_path: Path) -> None:
    # `Platform::convert(path)` names the type as much as `fn f(p: Platform)` does: platform.rs,
    # which declares `struct Platform`, had only lib.rs and its own submodules as dependents
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([r for p, body in IMPL_ELSEWHERE.items() for r in records(p, body)], {})
        repo = RustRepo(store)
        assert ("src/function.rs", "native") in repo.dependents("src/platform.rs")
        # other.rs's `Platform::` is its own type's
        assert "src/other.rs" not in repo.dependent_files("src/platform.rs")


MACRO_CRATE = {
    "Cargo.toml": '[package]\nname = "anyhow"\n',
    "src/lib.rs": "#[macro_use]\nmod macros;\n\npub struct Error;\n",
    "src/macros.rs": "#[macro_export]\nmacro_rules! bail {\n    ($e:expr) => {};\n}\n",
    "tests/test_macros.rs": 'use anyhow::bail;\n\nfn f() {\n    bail!("x");\n}\n',
    "tests/test_other.rs": 'fn g() {\n    bail!("no import: another crate\'s");\n}\n',
}


def test_an_exported_macro_is_named_at_its_crate_root_by_other_crates(tmp_path: Path) -> None:
    """`#[macro_export]` puts a macro at its crate's root wherever it is written: anyhow's
    tests write `use anyhow::bail` for the `bail!` of src/macros.rs, and no test was its
    dependent (the path led to lib.rs, which declares no `bail`)."""
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = RustRepo(store)
        repo.add(MACRO_CRATE)
        assert repo.dependent_files("src/macros.rs") == ["tests/test_macros.rs"]


def test_an_exported_macro_called_by_its_path_has_the_caller_as_a_dependent(
    tmp_path: Path,
) -> None:
    """`anyhow::bail!(...)` with no `use`: the path names the macro at the crate's root."""
    crate = {**MACRO_CRATE, "tests/test_path.rs": 'fn h() {\n    anyhow::bail!("x");\n}\n'}
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = RustRepo(store)
        repo.add(crate)
        assert repo.dependent_files("src/macros.rs") == [
            "tests/test_macros.rs",
            "tests/test_path.rs",
        ]


LOG_CRATE = {
    "Cargo.toml": '[package]\nname = "log"\n',
    "src/lib.rs": "#[macro_use]\nmod macros;\nmod logger;\nmod user;\n",
    "src/macros.rs": "#[macro_export]\nmacro_rules! log {\n    ($e:expr) => {};\n}\n",
    "src/logger.rs": (
        "pub trait Log { fn log(&self, r: u8); }\n\n"
        "impl<T: Log> Log for Box<T> {\n    fn log(&self, r: u8) {\n        self.as_ref().log(r);\n"
        "    }\n}\n"
    ),
    "src/user.rs": 'fn emit() {\n    log!("x");\n}\n',
}


def test_a_method_named_as_an_exported_macro_is_no_use_of_it(tmp_path: Path) -> None:
    """rust-lang/log's `self.as_ref().log(record)` calls the trait method `Log::log`; the
    reference was named `log` as src/macros.rs's `macro_rules! log` was, so the method's
    callers were the macro's dependents. A macro is invoked only as `log!(...)`."""
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = RustRepo(store)
        repo.add(LOG_CRATE)
        assert repo.dependent_files("src/macros.rs") == ["src/user.rs"]


def test_a_module_declared_without_a_body_is_an_import_of_its_file(tmp_path: Path) -> None:
    """rust-lang/log's lib.rs: `mod macros;` and `pub mod kv;` load src/macros.rs and
    src/kv/mod.rs, which related's imports (and the file graph) did not list."""
    crate = {**LOG_CRATE, "src/lib.rs": "#[macro_use]\nmod macros;\npub mod kv;\nmod user;\n"}
    crate["src/kv/mod.rs"] = "mod key;\n"
    crate["src/kv/key.rs"] = "pub struct Key;\n"
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = RustRepo(store)
        repo.add(crate)
        assert repo.resolver.imports("r", "src/lib.rs") == [
            "src/kv/mod.rs",
            "src/macros.rs",
            "src/user.rs",
        ]
        assert repo.resolver.imports("r", "src/kv/mod.rs") == ["src/kv/key.rs"]


# QA on sharkdp/fd: tests/tests.rs is an integration test crate Cargo finds by its folder (no
# [[test]] names it); its `mod testenv;` and `use crate::testenv::TestEnv` were read as paths
# of no crate, so related of tests/testenv/mod.rs said "dependents: none"
AUTO_TARGETS = {
    "Cargo.toml": '[package]\nname = "fd-find"\n',
    "src/main.rs": "mod walk;\n\nfn main() {}\n",
    "src/walk.rs": "pub struct Walker;\n",
    "src/bin/helper.rs": "mod walk;\n\nfn main() {\n    walk::Walker2::new();\n}\n",
    "src/bin/walk.rs": "pub struct Walker2;\n\nimpl Walker2 {\n    pub fn new() {}\n}\n",
    "tests/testenv/mod.rs": (
        "pub struct TestEnv;\n\nimpl TestEnv {\n    pub fn new() -> TestEnv {\n"
        "        TestEnv\n    }\n}\n"
    ),
    "tests/tests.rs": (
        "mod testenv;\n\nuse crate::testenv::TestEnv;\n\n#[test]\nfn finds() {\n"
        "    let env = TestEnv::new();\n}\n"
    ),
}


def test_a_crate_cargo_finds_by_its_folder_is_a_crate_root(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = RustRepo(store)
        repo.add(AUTO_TARGETS)
        assert repo.resolver.imports("r", "tests/tests.rs") == ["tests/testenv/mod.rs"]
        assert repo.dependent_files("tests/testenv/mod.rs") == ["tests/tests.rs"]
        # src/bin/helper.rs is a crate of its own: its `mod walk;` is src/bin/walk.rs
        assert repo.resolver.imports("r", "src/bin/helper.rs") == ["src/bin/walk.rs"]
        assert repo.dependent_files("src/bin/walk.rs") == ["src/bin/helper.rs"]


def test_a_module_re_exporting_a_name_has_the_files_naming_it_there(repo: RustRepo) -> None:
    """sharkdp/fd's src/filter/mod.rs declares only `mod`s and `pub use self::time::TimeFilter`
    (a barrel): main.rs, cli.rs and config.rs `use crate::filter::TimeFilter`, and related
    of it said "dependents: none". A name a module's `use` binds stands for the module, as a
    TS/JS barrel's re-exports do; the declaring file keeps them too."""
    assert repo.dependent_files("crates/core/flags/mod.rs") == [
        "crates/core/main.rs",
        "crates/core/search.rs",  # `crate::flags::Args`, re-exported from defs.rs
    ]
    assert repo.dependent_files("crates/matcher/src/lib.rs") == ["crates/core/search.rs"]
    assert repo.dependent_files("crates/core/engine/mod.rs") == ["crates/core/shells.rs"]
    # the declaring files keep theirs
    assert "crates/core/search.rs" in repo.dependent_files("crates/core/flags/defs.rs")


def test_a_use_of_the_files_own_enum_is_no_import(tmp_path: Path) -> None:
    """sharkdp/fd's src/fmt/mod.rs writes `use Token::*;` inside its functions for its own
    `enum Token`: related listed `Token::*` among its imports, as another crate's path."""
    files = {
        "Cargo.toml": '[package]\nname = "fd"\n',
        "src/main.rs": "mod fmt;\n\nfn main() {}\n",
        "src/fmt.rs": (
            "use std::fmt::Display;\n\npub enum Token {\n    Basename,\n}\n\n"
            "fn render(t: Token) {\n    use Token::*;\n    match t {\n        Basename => (),\n"
            "    }\n}\n"
        ),
    }
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        repo = RustRepo(store)
        repo.add(files)
        assert repo.resolver.imports("r", "src/fmt.rs") == ["std::fmt::Display"]
