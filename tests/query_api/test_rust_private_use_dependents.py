"""A Rust file's private `use` binds a name for that file (and its child modules) only: a
glob re-export of the file (`pub use self::io::*` in ffi/mod.rs) does not pass it on, so a
file naming that name through the module does not depend on the file. QA on hyperium/hyper:
related of src/ffi/io.rs listed src/ffi/body.rs, client.rs and error.rs as dependents
(`<file>`), each for a `use crate::ffi::size_t;` of its own: size_t is declared in ffi/mod.rs,
and io.rs's private `use crate::ffi::size_t;` stood for io.rs."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.test_rust_use_stand_in_users import FILES
from tests.query_api.test_symbol_dependents import repo_holding


def test_a_name_a_file_binds_by_a_private_use_is_no_dependency_on_it(tmp_path: Path) -> None:
    with repo_holding(tmp_path, FILES) as r:
        assert {path for path, _ in r.dependents("src/ffi/io.rs")} == {"src/ffi/client.rs"}


PUBLIC = {
    **FILES,
    "src/ffi/io.rs": FILES["src/ffi/io.rs"].replace(
        "use crate::ffi::size_t;", "pub use crate::ffi::size_t;"
    ),
}


def test_a_name_a_file_re_exports_still_makes_a_dependency(tmp_path: Path) -> None:
    with repo_holding(tmp_path, PUBLIC) as r:
        assert "src/ffi/error.rs" in {path for path, _ in r.dependents("src/ffi/io.rs")}
