"""A Rust test double named for a type (`TestColours` for `Colours`) in a file declaring its own
type of that name is that file's, not the tests of another file declaring one: QA on
eza-community/eza, where each src/output/render/*.rs declares a `Colours` trait and a
`#[cfg(test)]` module implementing it with `struct TestColours`, listed every other render
module's TestColours among the tests of render/git.rs (query_api/symbols/dependents.py)."""

from __future__ import annotations

from pathlib import Path

from query_api.symbols.related import related_of
from tests.query_api.test_symbol_dependents import repo_holding


def _render(name: str) -> str:
    return (
        "pub trait Colours {\n    fn paint(&self) -> u8;\n}\n\n"
        f"pub fn {name}<C: Colours>(c: &C) -> u8 {{\n    c.paint()\n}}\n\n"
        "#[cfg(test)]\nmod test {\n    use super::*;\n\n    struct TestColours;\n\n"
        "    impl Colours for TestColours {\n        fn paint(&self) -> u8 { 1 }\n    }\n\n"
        f"    #[test]\n    fn {name}_paints() {{\n        assert_eq!({name}(&TestColours), 1);\n"
        "    }\n}\n"
    )


FILES = {
    "Cargo.toml": '[package]\nname = "lister"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod render;\n",
    "src/render/mod.rs": (
        "mod git;\nmod perms;\nmod perms_unix;\nmod size;\n"
        "pub use self::git::Colours as GitColours;\npub use self::size::Colours as SizeColours;\n"
    ),
    "src/render/git.rs": _render("git"),
    "src/render/size.rs": _render("size"),
    # a sibling's double for the trait of another file (eza's permissions_unix.rs)
    "src/render/perms.rs": "pub trait Colours {\n    fn paint(&self) -> u8;\n}\n",
    "src/render/perms_unix.rs": (
        "#[cfg(test)]\nmod test {\n    use crate::render::perms::Colours;\n\n"
        "    struct TestColours;\n\n    impl Colours for TestColours {\n"
        "        fn paint(&self) -> u8 { 2 }\n    }\n}\n"
    ),
}


def test_another_files_test_double_is_not_a_test_of_it(tmp_path: Path) -> None:
    with repo_holding(tmp_path, FILES) as repo:
        git = related_of(repo.resolver, repo.views, "r", "src/render/git.rs", 0)
    tested = {row.path for row in git.tests}
    assert "src/render/git.rs" in tested
    assert not tested & {"src/render/size.rs", "src/render/perms_unix.rs"}, git.tests
