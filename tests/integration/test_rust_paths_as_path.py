"""outline and related given a Rust path for `path` (query_api/symbols/rust_paths.py).

QA on sharkdp/fd: `crate::filter::TimeFilter`, `TimeFilter::from_str`, `crate::filter::time`
(as an agent copies them from code) and `lscolors::LsColors` (as related lists another
crate's import) each answered "... is not indexed in fd" with no note, as for a typo."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import stdio_session, wait_indexed
from tests.integration.test_directory_paths import absent_note, assert_unnoted

pytestmark = pytest.mark.anyio

FILES = {
    "Cargo.toml": '[package]\nname = "fd"\n',
    "src/main.rs": "mod filter;\n\nuse lscolors::LsColors;\n\nfn main() {}\n",
    "src/filter/mod.rs": "mod time;\n\npub use self::time::TimeFilter;\n",
    "src/filter/time.rs": (
        "pub enum TimeFilter {\n    Before(u64),\n}\n\nimpl TimeFilter {\n"
        "    pub fn from_str(s: &str) -> Option<u64> {\n        None\n    }\n}\n"
    ),
    "src/other.rs": "pub struct Other;\n\nimpl Other {\n    pub fn from_str() {}\n}\n",
}


async def test_a_rust_path_names_its_declarations_or_modules_file(tmp_path: Path) -> None:
    repo = tmp_path / "workspace" / "fd"
    for path, body in FILES.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(body)
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        await wait_indexed(session, "fd")
        declared = "is no file; it is declared in src/filter/time.rs: name that file"
        for tool, path in (
            ("repocontext_outline", "crate::filter::TimeFilter"),
            ("repocontext_related", "TimeFilter::from_str"),
            # a last name alone only in a file under a module the path names
            ("repocontext_outline", "filter::from_str"),
        ):
            note, text = await absent_note(session, "fd", tool, path)
            assert note == f"{path} {declared}", note
            assert declared in text, text
        note, _ = await absent_note(session, "fd", "repocontext_outline", "crate::filter::time")
        assert note == (
            "crate::filter::time is no file; as a Rust module it is src/filter/time.rs: "
            "name that file"
        ), note
        note, _ = await absent_note(session, "fd", "repocontext_related", "lscolors::LsColors")
        assert note == (
            "lscolors::LsColors names nothing in fd: `lscolors` is none of its modules "
            "(a dependency's or the standard library's path)"
        ), note
        await assert_unnoted(session, "fd", "crate::nowhere::Gone")
