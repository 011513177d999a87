"""`what calls Route.URL` counts as callers of a method the files calling it (`.URL(`), not
those reading a field of the same name (`req.URL.Path`), and a hit's use lines leave out a
trailing comment naming it. QA on gorilla/mux: `what calls Route.URL` put mux.go and
regexp.go first, marked `uses:URL` and pointed at `path := req.URL.Path` (http.Request's
field), and pointed mux_test.go at `scheme string // the expected scheme of the built URL`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import member_users
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "route.go": (
        "package mux\n\n"
        "// Route holds a route's matchers and builds its URL.\n"
        "type Route struct {\n\tname string\n}\n\n"
        "// URL builds a URL for the route.\n"
        "func (r *Route) URL(pairs ...string) string {\n\treturn r.name\n}\n"
    ),
    "mux.go": (
        "package mux\n\n"
        'import "net/http"\n\n'
        "// Router matches a request's URL against each Route.\n"
        "type Router struct {\n\troutes []*Route\n}\n\n"
        "func (r *Router) Match(req *http.Request, route *Route) bool {\n"
        "\tpath := req.URL.Path\n"
        '\treturn path != "" && route != nil\n}\n'
    ),
    "old_test.go": (
        "package mux\n\n"
        'import "testing"\n\n'
        "func TestURLBuilding(t *testing.T) {\n"
        "\troute := new(Route)\n"
        '\tif u := route.URL("id", "42"); u != "" {\n'
        '\t\tt.Errorf("got %v", u)\n\t}\n}\n'
    ),
    "mux_test.go": (
        "package mux\n\n"
        'import "testing"\n\n'
        "type routeTest struct {\n"
        "\troute  *Route\n"
        "\tscheme string // the expected scheme of the built URL\n"
        "}\n\n"
        "func testRoute(t *testing.T, test routeTest) {\n"
        "\tu := test.route.URL()\n"
        "\tt.Log(u)\n}\n"
    ),
}


def test_the_callers_of_a_method_call_it() -> None:
    bodies = {"a.go": "x := req.URL.Path\n", "b.go": "u := r.URL()\n", "c.go": "f(r.URL)\n"}
    assert member_users("URL", bodies, calls=True) == {"b.go": [1]}
    assert member_users("URL", bodies) == {"a.go": [1], "b.go": [1], "c.go": [1]}


async def test_what_calls_a_method_leaves_out_a_field_of_its_name(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "what calls Route.URL"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        marked = {h["entry"]["path"]: h for h in found["hits"] if "uses:URL" in h["reasons"]}
        assert set(marked) == {"old_test.go", "mux_test.go"}, found["hits"]
        hit = marked["mux_test.go"]
        assert (hit["startLine"], hit["endLine"]) == (10, 13), hit
        assert hit["snippet"] == "11: u := test.route.URL()", hit
