"""The outline of a Go file holding only its package's documentation comment (doc.go) says
so, with the package's other files to outline. QA on gorilla/mux: outline(doc.go) answered
"305 lines, 0 symbols" and nothing else, as if the file were empty or unread."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.go_package_doc import package_doc
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

DOC = (
    "// Copyright 2012 The Authors.\n\n"
    "/*\nPackage mux implements a request router.\n\n\tr := mux.NewRouter()\n*/\n"
    "package mux\n"
)


def test_a_package_doc_file_is_told_from_code() -> None:
    assert package_doc(DOC) == ("mux", 8)
    assert package_doc("// Package x does y.\npackage x\n\nfunc F() {}\n") is None
    assert package_doc("package x\n") is None  # no documentation: nothing to say


async def test_the_outline_of_a_package_doc_file_says_what_it_is(tmp_path: Path) -> None:
    write_files(
        tmp_path / "ws" / "repo",
        {
            "doc.go": DOC,
            "mux.go": "package mux\n\n// Router routes.\ntype Router struct{}\n",
            "route.go": "package mux\n\n// Route is one route.\ntype Route struct{}\n",
            "sub/other.go": "package sub\n\nfunc F() {}\n",
        },
    )
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_outline", {"repoId": "repo", "path": "doc.go"})
        assert found.get("note") == (
            "doc.go declares nothing: it is package mux's documentation comment, before "
            "`package mux` (line 8); outline the package's other files: mux.go, route.go"
        ), found
