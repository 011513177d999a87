"""A query for the users of a Rust name written as code writes it (`Policy::limited`,
`wait::timeout`, `Policy.limited`) places the files calling it first, as for a bare name:
the real index, the keyword ladder, the MCP client. QA on seanmonstar/reqwest: these found
no declaration (a Rust method is stored as `Policy.limited`, a function as `timeout`, with
no module), so the declaring file came first and the callers had no `uses:` reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/lib.rs": "pub mod blocking;\npub mod redirect;\nmod client;\n",
    "src/blocking/mod.rs": "mod wait;\nmod response;\n",
    "src/blocking/wait.rs": (
        "use std::time::Duration;\n\n"
        "/// Wait for a future, at most `timeout`: the blocking timeout and its wait.\n"
        "pub(crate) fn timeout(fut: u32, timeout: Option<Duration>) -> u32 {\n"
        "    let _ = timeout;\n    fut\n}\n"
    ),
    "src/blocking/response.rs": (
        "use super::wait;\n\npub struct Response {\n    n: u32,\n}\n\n"
        "impl Response {\n    pub fn json(self) -> u32 {\n"
        "        wait::timeout(self.n, None)\n    }\n}\n"
    ),
    "src/redirect.rs": (
        "/// A redirect policy, limited to a number of redirects.\n"
        "pub struct Policy {\n    max: usize,\n}\n\n"
        "impl Policy {\n    /// A policy limited to `max` redirects.\n"
        "    pub fn limited(max: usize) -> Self {\n        Policy { max }\n    }\n}\n"
    ),
    "src/client.rs": (
        "use crate::redirect;\n\npub fn build() -> redirect::Policy {\n"
        "    redirect::Policy::limited(10)\n}\n"
    ),
    # holds the words of both queries, uses neither
    "src/timeouts.rs": (
        "/// What calls a timeout: the wait is limited, the policy limited, the timeout waits.\n"
        "pub fn wait_timeout_policy_limited() -> u32 {\n    0\n}\n"
    ),
}


@pytest.mark.parametrize(
    ("query", "caller", "reason"),
    [
        ("what calls Policy::limited", "src/client.rs", "uses:limited"),
        ("what calls Policy.limited", "src/client.rs", "uses:limited"),
        ("callers of redirect::Policy::limited", "src/client.rs", "uses:limited"),
        ("what calls wait::timeout", "src/blocking/response.rs", "uses:timeout"),
        (
            "where is crate::blocking::wait::timeout used?",
            "src/blocking/response.rs",
            "uses:timeout",
        ),
    ],
)
async def test_a_query_for_the_users_of_a_rust_path_ranks_them_first(
    tmp_path: Path, query: str, caller: str, reason: str
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        first = found["hits"][0]
        assert first["entry"]["path"] == caller, found["hits"]
        assert reason in first["reasons"], first
