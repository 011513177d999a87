"""A pasted Go panic's goroutine trace ranks the repository files its frames name first, the
innermost (printed first) first, and leaves out the Go runtime's and standard library's
frames. QA on gorilla/mux: a panic through testing.go and runtime/panic.go, then
regexp.go:203 (routeRegexp.Match, where it failed), route.go:50 and mux_test.go:1420 ranked
route.go above regexp.go, and mux_test.go's hit was not pointed at line 1420: the places
were read as words, the standard library's first, and the four read left it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import go_frames
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "regexp.go": (
        "package mux\n\n"
        "type routeRegexp struct {\n\tvarsN []string\n}\n\n"
        "func (r *routeRegexp) Match(path string) bool {\n"
        "\treturn r.varsN[1] == path\n}\n"
    ),
    "route.go": (
        "package mux\n\n"
        "// Route matches a request: a route's match panics when out of range.\n"
        "type Route struct {\n\tregexp *routeRegexp\n}\n\n"
        "func (r *Route) Match(path string) bool {\n"
        "\treturn r.regexp.Match(path)\n}\n"
    ),
    "mux_test.go": (
        "package mux\n\n"
        'import "testing"\n\n'
        "func TestSubRouter(t *testing.T) {\n"
        "\troute := &Route{regexp: &routeRegexp{}}\n"
        '\tif !route.Match("/a") {\n'
        '\t\tt.Error("no match")\n\t}\n}\n'
    ),
    "doc.go": (
        "// Package mux: a runtime error, index out of range, panics, goroutine.\npackage mux\n"
    ),
}

TRACE = """--- FAIL: TestSubRouter (0.00s)
panic: runtime error: index out of range [1] with length 0 [recovered]
\tpanic: runtime error: index out of range [1] with length 0

goroutine 6 [running]:
testing.tRunner.func1.2({0x6b3f20, 0xc0000a8018})
\t/usr/local/go/src/testing/testing.go:1526 +0x24e
panic({0x6b3f20, 0xc0000a8018})
\t/usr/local/go/src/runtime/panic.go:884 +0x213
github.com/gorilla/mux.(*routeRegexp).Match(0xc0000d0000, {0x6c1a2b, 0x2})
\t/home/u/mux/regexp.go:8 +0x3c5
github.com/gorilla/mux.(*Route).Match(0xc0000c4000, {0x6c1a2b, 0x2})
\t/home/u/mux/route.go:9 +0x8e
github.com/gorilla/mux.TestSubRouter(0xc0000b6340)
\t/home/u/mux/mux_test.go:7 +0x25
testing.tRunner(0xc0000b6340, 0x6d3f10)
\t/usr/local/go/src/testing/testing.go:1576 +0x10b
created by testing.(*T).Run in goroutine 1
\t/usr/local/go/src/testing/testing.go:1629 +0x3ea
FAIL\tgithub.com/gorilla/mux\t0.012s
"""


def test_the_frames_of_a_goroutine_trace() -> None:
    assert go_frames(TRACE) == [
        ("/home/u/mux/regexp.go", 8),
        ("/home/u/mux/route.go", 9),
        ("/home/u/mux/mux_test.go", 7),
    ]
    main = (
        "main.main()\n\t/app/main.go:20 +0x9a\n"
        "net/http.(*conn).serve(0xc0)\n\t/go/src/net/http/server.go:2 +0x1"
    )
    assert go_frames(main) == [("/app/main.go", 20)]


async def test_a_go_panic_ranks_its_frames_files_innermost_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": TRACE})
        paths = [hit["entry"]["path"] for hit in found["hits"]]
        assert paths[:3] == ["regexp.go", "route.go", "mux_test.go"], paths
        lines = {h["entry"]["path"]: (h["startLine"], h["endLine"]) for h in found["hits"][:3]}
        assert lines == {"regexp.go": (8, 8), "route.go": (9, 9), "mux_test.go": (7, 7)}, lines
