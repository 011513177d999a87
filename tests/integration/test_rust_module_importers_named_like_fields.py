"""`what imports headers` for a Rust module (`mod headers;`) whose name fields and methods
of the crate share answers the files importing the module. QA on hyperium/hyper: `what
imports headers` placed no user, since the name's declarations were the many `headers`
fields (MessageHead.headers, ...); the `mod headers;` that loads src/headers.rs sits inside
`cfg_proto! { ... }`, no declaration (the fd rule asks for a module's importers only when no
declaration, or only `mod` lines, bear the name):
src/client/conn/http1.rs led for `h1_title_case_headers`, and src/proto/h1/conn.rs, which
says `use crate::headers;`, was not among the first four."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/lib.rs": "mod conn;\nmod builder;\n\ncfg_proto! {\n    mod headers;\n}\n",
    "src/headers.rs": "pub(crate) fn te_is_trailers(n: u8) -> bool {\n    n > 0\n}\n",
    "src/conn.rs": (
        "use crate::headers;\n\npub struct MessageHead {\n    pub headers: u8,\n}\n\n"
        "pub fn poll(head: &MessageHead) -> bool {\n    headers::te_is_trailers(head.headers)\n}\n"
    ),
    # the word `headers` many times, no import of the module
    "src/builder.rs": (
        "pub struct Builder {\n    title_case_headers: bool,\n    max_headers: usize,\n}\n\n"
        "impl Builder {\n    /// the headers, the headers and the max headers\n"
        "    pub fn headers(&self) -> usize {\n        self.max_headers\n    }\n}\n"
    ),
}


async def test_what_imports_a_module_named_like_fields_answers_its_importers(
    tmp_path: Path,
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("what imports headers", "who imports headers"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            marked = [h["entry"]["path"] for h in found["hits"] if "uses:headers" in h["reasons"]]
            assert marked and marked[0] == "src/conn.rs", (query, found["hits"])
            assert "src/builder.rs" not in marked, (query, marked)
