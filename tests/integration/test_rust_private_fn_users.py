"""A Rust function declared without `pub` is seen only in its own module and the modules
below it: a file elsewhere calling a method of the same name is no user of it. QA on
seanmonstar/warp: `what calls path_and_query` (a private `fn path_and_query(route: &Route)`
in src/filters/path.rs) marked tests/path.rs `uses:path_and_query`, for
`request.uri().path_and_query()`, the http crate's method."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "Cargo.toml": '[package]\nname = "app"\n',
    "src/lib.rs": "pub mod filters;\n",
    "src/filters/mod.rs": "pub mod path;\n",
    "src/filters/path.rs": (
        "pub fn full_path(route: &str) -> String {\n    path_and_query(route)\n}\n\n"
        "fn path_and_query(route: &str) -> String {\n    route.to_string()\n}\n"
    ),
    "tests/path.rs": (
        '#[test]\nfn uri_has_no_query() {\n    let uri = http::Uri::from_static("/");\n'
        "    assert!(uri.path_and_query().is_some());\n}\n"
    ),
}


async def test_a_private_rust_fn_has_no_users_outside_its_module(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "what calls path_and_query"}
        )
        users = {
            hit["entry"]["path"] for hit in found["hits"] if "uses:path_and_query" in hit["reasons"]
        }
        assert "tests/path.rs" not in users, found["hits"]
        assert users == {"src/filters/path.rs"}, found["hits"]  # its own file calls it
