"""`what calls X` points a file's hit at a line calling X (`route.URL()`) before a line
only naming it (`r.URL.Host`). QA on gorilla/mux: `what calls Route.URL` pointed
mux_test.go at `return r.URL.Host == "aaa.bbb.ccc"` (line 1131, http.Request's field), its
first line holding `URL`, though the file calls `route.URL(...)` further down."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "route.go": (
        "package mux\n\n"
        "// Route builds URLs.\ntype Route struct {\n\tname string\n}\n\n"
        "// URL builds a URL for the route.\n"
        "func (r *Route) URL(pairs ...string) string {\n\treturn r.name\n}\n"
    ),
    "mux_test.go": (
        "package mux\n\n"
        'import (\n\t"net/http"\n\t"testing"\n)\n\n'
        "func hostMatches(r *http.Request) bool {\n"
        '\treturn r.URL.Host == "aaa.bbb.ccc"\n'
        "}\n\n"
        "func TestURL(t *testing.T) {\n"
        "\troute := new(Route)\n"
        "\tt.Log(route.URL())\n"
        "}\n"
    ),
}


async def test_a_users_hit_points_at_a_call(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "what calls Route.URL"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "mux_test.go")
        assert "uses:URL" in hit["reasons"], hit
        assert (hit["startLine"], hit["endLine"]) == (12, 15), hit
        assert hit["snippet"] == "14: t.Log(route.URL())", hit
