"""The users of one declaration of a Rust file are the files naming it, not those naming
another name the file binds by `use`: such a name stands for the file (its module) only when
the file as a whole is asked about (related, changed). QA on hyperium/hyper: `what calls
poll_flush` (declared, among others, by src/ffi/io.rs, which says `use crate::ffi::size_t;`)
ranked src/ffi/body.rs, http_types.rs and error.rs first, each `uses:poll_flush` for its own
`use crate::ffi::size_t` (ffi/mod.rs globs `pub use self::io::*`); none of them names
poll_flush."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.test_symbol_dependents import repo_holding
from tests.query_api.test_ts_member_users import users_of

FILES = {
    "Cargo.toml": '[package]\nname = "app"\n',
    "src/lib.rs": "pub mod ffi;\n",
    "src/ffi/mod.rs": (
        "mod error;\nmod io;\n\npub use self::error::*;\npub use self::io::*;\n\n"
        "type size_t = usize;\n"
    ),
    "src/ffi/io.rs": (
        "use crate::ffi::size_t;\n\npub struct hyper_io {\n    n: size_t,\n}\n\n"
        "impl hyper_io {\n    pub fn poll_flush(&self) -> size_t {\n        self.n\n    }\n}\n"
    ),
    # names size_t only, which io.rs binds by a `use` of its own
    "src/ffi/error.rs": (
        "use crate::ffi::size_t;\n\npub fn hyper_error_print(dst_len: size_t) -> size_t {\n"
        "    dst_len\n}\n"
    ),
    "src/ffi/client.rs": (
        "use crate::ffi::io::hyper_io;\n\npub fn flush(io: &hyper_io) {\n"
        "    crate::ffi::io::hyper_io::poll_flush(io);\n}\n"
    ),
}


def test_a_name_a_rust_file_binds_by_use_is_no_use_of_its_declarations(tmp_path: Path) -> None:
    with repo_holding(tmp_path, FILES) as r:
        assert "src/ffi/error.rs" not in users_of(r, "hyper_io", "src/ffi/io.rs")
        assert users_of(r, "hyper_io", "src/ffi/io.rs") == ["src/ffi/client.rs"]
