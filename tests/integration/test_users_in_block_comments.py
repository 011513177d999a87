"""Code inside a `/* ... */` comment is no use of a name: a Go package's doc.go writes its
documentation, code examples included, in one block comment. QA on gorilla/mux: `what calls
Router.Use` ranked doc.go first, marked `uses:Use` and pointed at `r.Use(simpleMw)`, a line
of its package comment, above middleware_test.go, which calls it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import member_users, outside_block_comments
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "doc.go": (
        "/*\nPackage mux is a router. Middlewares are added with Router.Use:\n\n"
        "\tr := mux.NewRouter()\n\tr.Use(simpleMw)\n\tr.Use(loggingMw)\n*/\npackage mux\n"
    ),
    "middleware.go": (
        "package mux\n\n"
        "// Router routes requests.\ntype Router struct {\n\tmws []func()\n}\n\n"
        "// Use appends middlewares to the chain.\n"
        "func (r *Router) Use(mwf ...func()) {\n\tr.mws = append(r.mws, mwf...)\n}\n"
    ),
    "middleware_test.go": (
        "package mux\n\n"
        'import "testing"\n\n'
        "func TestMiddleware(t *testing.T) {\n"
        "\trouter := &Router{}\n"
        "\t/* a block comment: router.Use(nothing) */ router.Use(func() {})\n"
        "}\n"
    ),
}


def test_what_lies_in_a_block_comment_is_left_out() -> None:
    lines = ["a := 1 /* b.Use(x) */ + c.Use(y)", "/*", "r.Use(m)", "*/ d.Use(z)", 's := "/*"']
    assert outside_block_comments(lines) == ["a := 1  + c.Use(y)", "", "", " d.Use(z)", 's := ""']
    bodies = {"doc.go": "/*\n\tr.Use(m)\n*/\npackage mux\n", "a.go": "x.Use(f)\n"}
    assert member_users("Use", bodies, calls=True) == {"a.go": [1]}
    assert member_users("Use", {"a.py": "p = '/*'\nx.Use(f)\n"}) == {"a.py": [2]}


async def test_a_package_comment_is_no_user(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "what calls Router.Use"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        marked = [h["entry"]["path"] for h in found["hits"] if "uses:Use" in h["reasons"]]
        assert marked == ["middleware_test.go"], found["hits"]
        first = found["hits"][0]
        assert first["entry"]["path"] == "middleware_test.go", found["hits"]
        assert (
            first["snippet"]
            == "7: /* a block comment: router.Use(nothing) */ router.Use(func() {})"
        )
